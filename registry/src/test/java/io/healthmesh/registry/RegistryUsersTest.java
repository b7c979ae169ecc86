package io.healthmesh.registry;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RegistryUsersTest {

    private static String basic(String userInfo) {
        return "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void parsesEntriesAndAuthenticates() {
        RegistryUsers users = RegistryUsers.parseInline("admin:ADMIN:a:b:c, reader:read:r", "registry.users");
        assertThat(users.list()).containsExactly(new RegistryUsers.User("admin", RegistryRole.ADMIN),
                new RegistryUsers.User("reader", RegistryRole.READ));
        assertThat(users.authenticate(basic("admin:a:b:c"))).contains(new RegistryUsers.User("admin", RegistryRole.ADMIN));
        assertThat(users.authenticate(basic("reader:r"))).map(RegistryUsers.User::role).contains(RegistryRole.READ);
        assertThat(users.authenticate(basic("reader:R"))).isEmpty();
        assertThat(users.authenticate(basic("ghost:r"))).isEmpty();
        assertThat(users.authenticate("Bearer x")).isEmpty();
        assertThat(users.authenticate("Basic !!!")).isEmpty();
        assertThat(users.authenticate(null)).isEmpty();
        assertThat(users.toString()).doesNotContain("a:b:c").doesNotContain(":r");
    }

    @Test
    void malformedEntriesNameTheirPositionNotTheirPassword() {
        assertThatThrownBy(() -> RegistryUsers.parse(List.of("ok:read:x", "broken-secret"), "f"))
                .hasMessage("f entry 2: malformed (expected: name:role:password)");
        assertThatThrownBy(() -> RegistryUsers.parse(List.of("u:owner:secret"), "f"))
                .hasMessage("f entry 1: role owner (expected: read or admin)");
        assertThatThrownBy(() -> RegistryUsers.parse(List.of("u:read:x", "u:admin:y"), "f"))
                .hasMessage("f entry 2: user u given twice");
        assertThatThrownBy(() -> RegistryUsers.parse(List.of("u:read:"), "f"))
                .hasMessageNotContaining("secret").hasMessageContaining("malformed");
    }
}
