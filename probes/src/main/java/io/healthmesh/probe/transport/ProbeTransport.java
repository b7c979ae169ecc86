package io.healthmesh.probe.transport;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Which Netty transport the probe engine's TCP, UDP and HTTP(S) probes use: {@link #AUTO} picks the best the
 * system allows (epoll, then NIO; io_uring only when forced) when the engine starts; the others force one, and the engine
 * refuses to start when the forced one is unavailable. ICMP keeps its own socket whatever this says.
 */
public enum ProbeTransport {
    AUTO("auto"),
    IO_URING("io_uring"),
    EPOLL("epoll"),
    NIO("nio");

    private final String settingName;

    ProbeTransport(String settingName) {
        this.settingName = settingName;
    }

    /** The name in settings and logs: {@code auto}, {@code io_uring}, {@code epoll} or {@code nio}. */
    public String settingName() {
        return settingName;
    }

    /** Every setting name, as a range for messages and docs: {@code auto|io_uring|epoll|nio}. */
    public static String names() {
        return Arrays.stream(values()).map(ProbeTransport::settingName).collect(Collectors.joining("|"));
    }

    /**
     * The transport of a setting name (case-insensitive, surrounding blanks ignored).
     *
     * @throws IllegalArgumentException {@code transport: <value> (expected: auto|io_uring|epoll|nio)}
     */
    public static ProbeTransport parse(String text) {
        String name = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        for (ProbeTransport t : values()) {
            if (t.settingName.equals(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("transport: " + text + " (expected: " + names() + ")");
    }
}
