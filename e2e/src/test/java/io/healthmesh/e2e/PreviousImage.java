package io.healthmesh.e2e;

import com.github.dockerjava.api.exception.NotFoundException;
import org.testcontainers.DockerClientFactory;

import java.util.Map;

/**
 * The image of the previous release that the rolling upgrade starts from: system property
 * {@code healthmesh.previous.image}, else {@code HEALTHMESH_PREVIOUS_IMAGE}, else {@value #DEFAULT}, as
 * {@code docker/build-previous.sh} tags it. Never pulled: a missing one fails with the command that builds it.
 */
final class PreviousImage {

    static final String DEFAULT = "healthmesh:0.2.0";

    private PreviousImage() {
    }

    /** The name in force; fails, naming the build script, when the engine does not have it. */
    static String require(Map<String, String> env) {
        String image = System.getProperty("healthmesh.previous.image");
        if (image == null || image.isBlank()) {
            image = env.getOrDefault("HEALTHMESH_PREVIOUS_IMAGE", "");
        }
        if (image.isBlank()) {
            image = DEFAULT;
        }
        try {
            DockerClientFactory.instance().client().inspectImageCmd(image).exec();
        } catch (NotFoundException e) {
            throw new IllegalStateException("the previous release's image " + image + " is not on the Docker engine "
                    + "(build it: docker/build-previous.sh --offline)", e);
        }
        return image;
    }
}
