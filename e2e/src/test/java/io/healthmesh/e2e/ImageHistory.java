package io.healthmesh.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** An image's layers as {@code docker history} lists them (newest first); the Docker API client has no such call. */
final class ImageHistory {

    private ImageHistory() {
    }

    /** The instruction that made each layer, newest first. */
    static List<String> createdBy(String image) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("docker", "history", "--no-trunc", "--format", "{{.CreatedBy}}", image)
                .redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("docker history " + image + " did not finish within 60 s");
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("docker history " + image + " failed: " + out);
        }
        return out.lines().toList();
    }
}
