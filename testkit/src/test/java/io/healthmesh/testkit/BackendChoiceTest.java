package io.healthmesh.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.healthmesh.testkit.BackendChoice.Kind;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;

class BackendChoiceTest {

    private final AtomicInteger dockerChecks = new AtomicInteger();

    private BooleanSupplier docker(boolean answers) {
        return () -> {
            dockerChecks.incrementAndGet();
            return answers;
        };
    }

    @Test
    void embeddedUnlessContainersAreAskedForAndDockerIsNotAsked() {
        for (String value : new String[] {null, "", "false", "yes"}) {
            BackendChoice choice = BackendChoice.choose(value, docker(true));

            assertThat(choice.kind()).isEqualTo(Kind.EMBEDDED);
            assertThat(choice.fellBack()).isFalse();
            assertThat(choice.reason()).isEqualTo("embedded Kafka: system property healthmesh.containers is not true");
        }
        assertThat(dockerChecks).hasValue(0);
    }

    @Test
    void containerWhenAskedForAndDockerAnswers() {
        BackendChoice choice = BackendChoice.choose(" TRUE ", docker(true));

        assertThat(choice.kind()).isEqualTo(Kind.CONTAINER);
        assertThat(choice.fellBack()).isFalse();
        assertThat(dockerChecks).hasValue(1);
    }

    @Test
    void fallsBackToEmbeddedSayingWhyWhenDockerIsSilent() {
        BackendChoice choice = BackendChoice.choose("true", docker(false));

        assertThat(choice.kind()).isEqualTo(Kind.EMBEDDED);
        assertThat(choice.fellBack()).isTrue();
        assertThat(choice.reason()).isEqualTo("embedded Kafka: healthmesh.containers=true but Testcontainers finds no usable Docker engine");
    }
}
