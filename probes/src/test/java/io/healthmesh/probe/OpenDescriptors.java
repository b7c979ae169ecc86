package io.healthmesh.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * This process's open file descriptors and what each points at, so that a leak check can say which descriptors
 * are new when it fails (a socket left open, or something else of the JVM that opened meanwhile).
 */
public final class OpenDescriptors {

    private final Map<Integer, String> targets;

    private OpenDescriptors(Map<Integer, String> targets) {
        this.targets = targets;
    }

    public static OpenDescriptors now() throws IOException {
        Map<Integer, String> targets = new TreeMap<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    targets.put(Integer.parseInt(fd.getFileName().toString()), Files.readSymbolicLink(fd).toString());
                } catch (IOException | NumberFormatException closedMeanwhile) {
                    // the listing's own descriptor, or one closed between the listing and the read
                }
            }
        }
        return new OpenDescriptors(targets);
    }

    public int count() {
        return targets.size();
    }

    /** The descriptors open now and not in {@code before} (or pointing elsewhere), as "fd -> target". */
    public String addedSince(OpenDescriptors before) {
        return targets.entrySet().stream()
                .filter(e -> !e.getValue().equals(before.targets.get(e.getKey())))
                .map(e -> e.getKey() + " -> " + e.getValue())
                .collect(Collectors.joining(", ", "[", "]"));
    }
}
