package io.healthmesh.haproxy.mapping;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ServerNamesTest {

    @Test
    void anIdHaproxyAcceptsIsTheNameAsItIs() {
        assertThat(ServerNames.name("{id}", "api-1.eu:8080")).isEqualTo("api-1.eu:8080");
        assertThat(ServerNames.name("hm-{id}", "api_1")).isEqualTo("hm-api_1");
    }

    @Test
    void refusedCharactersBecomeUnderscoresAndTheIdsHashKeepsNamesApart() {
        String slash = ServerNames.name("{id}", "api/1");
        String space = ServerNames.name("{id}", "api 1");
        assertThat(slash).matches("api_1-[0-9a-f]{8}");
        assertThat(space).matches("api_1-[0-9a-f]{8}");
        assertThat(slash).isNotEqualTo(space).isNotEqualTo(ServerNames.name("{id}", "api_1"));
        assertThat(ServerNames.name("{id}", "api/1")).as("the same id, the same name").isEqualTo(slash);
    }

    @Test
    void longIdsAreCutToTheLimitWithTheirHash() {
        String a = ServerNames.name("web-{id}", "x".repeat(300) + "a");
        String b = ServerNames.name("web-{id}", "x".repeat(300) + "b");
        assertThat(a).hasSize(ServerNames.MAX_LENGTH).startsWith("web-xxx").matches(".*-[0-9a-f]{8}");
        assertThat(b).hasSize(ServerNames.MAX_LENGTH).isNotEqualTo(a);
        assertThat(ServerNames.name("{id}", "é".repeat(10))).matches("_{10}-[0-9a-f]{8}")
                .matches(ServerNames.ALLOWED.pattern());
    }
}
