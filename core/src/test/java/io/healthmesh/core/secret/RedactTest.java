package io.healthmesh.core.secret;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RedactTest {

    @Test
    void userInfoOfEveryUrlIsMasked() {
        assertThat(Redact.userInfo("http://reader:s3cret@registry:8081")).isEqualTo("http://***@registry:8081");
        assertThat(Redact.userInfo("https://a:b@r1:8081,http://c:d@r2/x?y=z@w"))
                .isEqualTo("https://***@r1:8081,http://***@r2/x?y=z@w");
        assertThat(Redact.userInfo("http://token@h")).isEqualTo("http://***@h");
        assertThat(Redact.userInfo("cannot reach http://registry:8081/subjects")).isEqualTo("cannot reach http://registry:8081/subjects");
        assertThat(Redact.userInfo("mem://demo")).isEqualTo("mem://demo");
        assertThat(Redact.userInfo(null)).isNull();
    }
}
