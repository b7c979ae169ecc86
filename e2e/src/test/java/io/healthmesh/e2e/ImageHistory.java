package io.healthmesh.e2e;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** An image's layers as {@code docker history} lists them (newest first); the Docker API client has no such call. */
final class ImageHistory {

    private ImageHistory() {
    }

    /** The instruction that made each layer, newest first. */
    static List<String> createdBy(String image) throws IOException, InterruptedException {
        Processes.Result result = Processes.run(
                List.of("docker", "history", "--no-trunc", "--format", "{{.CreatedBy}}", image),
                Path.of("."), Map.of(), Duration.ofSeconds(60));
        if (result.exitCode() != 0) {
            throw new IllegalStateException("docker history " + image + " failed: " + result.output());
        }
        return result.output().lines().toList();
    }
}
