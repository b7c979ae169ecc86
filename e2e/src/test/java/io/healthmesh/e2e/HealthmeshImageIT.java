package io.healthmesh.e2e;

import com.github.dockerjava.api.command.InspectImageResponse;
import com.github.dockerjava.api.model.ContainerConfig;
import com.github.dockerjava.api.model.HealthCheck;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The healthmesh image as docker/Dockerfile promises it: the {@code healthmesh} command as entrypoint, a non-root
 * user, a HEALTHCHECK, and the dependencies in a layer below the thin jar's.
 */
class HealthmeshImageIT {

    private static E2eImages images;

    @BeforeAll
    static void containerTier() {
        ContainerTier.assumeAvailable();
        images = E2eImages.fromEnvironment(System.getenv());
        images.requirePresent();
    }

    @Test
    void entrypointIsTheHealthmeshCommandRunAsANonRootUser() {
        InspectImageResponse image = DockerClientFactory.instance().client().inspectImageCmd(images.healthmesh()).exec();
        ContainerConfig config = image.getConfig();
        assertThat(config.getEntrypoint()).containsExactly("/usr/local/bin/healthmesh");
        assertThat(config.getUser()).isNotBlank().isNotIn("root", "0");
        HealthCheck health = config.getHealthcheck();
        assertThat(health).isNotNull();
        assertThat(health.getTest()).contains("/usr/local/bin/healthmesh-healthcheck");

        OneShotContainer.Ended version = OneShotContainer.run("healthmesh --version",
                new GenericContainer<>(images.healthmesh()).withCommand("--version"), Duration.ofSeconds(60));
        assertThat(version.exitCode()).as("exit code of --version:\n%s", version.output()).isZero();
        assertThat(version.output()).startsWith("healthmesh ");
    }

    @Test
    void dependenciesLieInALayerBelowTheJar() throws Exception {
        List<String> createdBy = ImageHistory.createdBy(images.healthmesh());
        int lib = indexOf(createdBy, "/app/lib/");
        int jar = indexOf(createdBy, "/app/");
        assertThat(lib).as("a layer that copies /app/lib/").isNotNegative();
        // history lists the newest layer first: the jar's layer must be newer (smaller index) than the libraries'
        assertThat(jar).as("the jar's layer").isNotNegative().isLessThan(lib);
    }

    @Test
    void carriesNoTestLibraries() {
        // test support lives in the test-scoped testkit module: JUnit and Testcontainers must not reach the product
        GenericContainer<?> ls = new GenericContainer<>(images.healthmesh())
                .withCreateContainerCmdModifier(cmd -> cmd.withEntrypoint("/bin/ls", "-1", "/app/lib"));
        OneShotContainer.Ended listing = OneShotContainer.run("ls -1 /app/lib", ls, Duration.ofSeconds(60));
        assertThat(listing.exitCode()).as("exit code of ls:\n%s", listing.output()).isZero();
        List<String> jars = List.of(listing.output().split("\\R"));
        assertThat(jars).as("/app/lib").anyMatch(j -> j.startsWith("kafka-clients-"));
        assertThat(jars).as("/app/lib")
                .noneMatch(j -> j.startsWith("junit-") || j.startsWith("testcontainers")
                        || j.startsWith("healthmesh-testkit") || j.startsWith("opentest4j")
                        || j.startsWith("docker-java"));
    }

    private static int indexOf(List<String> createdBy, String destination) {
        for (int i = 0; i < createdBy.size(); i++) {
            // legacy builder: "COPY dir:<hash> in /app/lib/"; BuildKit: "COPY cli/target/lib/ /app/lib/ # buildkit"
            String line = createdBy.get(i).replace("# buildkit", "").trim();
            if (line.contains("COPY") && line.endsWith(" " + destination)) {
                return i;
            }
        }
        return -1;
    }
}
