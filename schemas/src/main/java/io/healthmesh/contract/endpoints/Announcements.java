package io.healthmesh.contract.endpoints;

import io.healthmesh.contract.serde.RecordDecodeException;
import io.healthmesh.contract.serde.SingleObjectCodec;
import io.healthmesh.schema.ListenerEndpoint;
import io.healthmesh.schema.WorkerEndpoints;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The endpoints topic's record: its bounds, checked on both sides, and its encoding (Avro single-object of
 * {@link WorkerEndpoints}, readable without the schema registry). A record over a bound is refused whole: whoever
 * writes the topic can make a reader hold at most {@link #MAX_ENDPOINTS} endpoints per key, each a short string
 * and a port.
 */
public final class Announcements {

    /** Endpoints in one announcement. */
    public static final int MAX_ENDPOINTS = 64;
    /** Characters of a host (a DNS name's limit). */
    public static final int MAX_HOST = 255;
    /** Characters of a role or a listener's name. */
    public static final int MAX_NAME = 64;
    /** UTF-8 bytes of a key (the worker's instance id). */
    public static final int MAX_KEY_BYTES = 255;
    /** Encoded bytes of one record: room for {@link #MAX_ENDPOINTS} endpoints at their longest. */
    public static final int MAX_BYTES = 32 * 1024;
    /** How often a worker writes its announcement again. */
    public static final Duration REFRESH = Duration.ofMinutes(1);
    /**
     * How old an announcement may grow before readers stop denying it: a worker that died without withdrawing its
     * listeners does not keep an address that is later given to a target denied for ever.
     */
    public static final Duration MAX_AGE = Duration.ofMinutes(10);

    private static final SingleObjectCodec<WorkerEndpoints> CODEC =
            new SingleObjectCodec<>(WorkerEndpoints.getClassSchema(), MAX_BYTES);

    private Announcements() {
    }

    /**
     * The bytes of {@code announcement}.
     *
     * @throws IllegalArgumentException when it breaks a bound
     */
    public static byte[] encode(Announcement announcement) {
        check(announcement);
        List<ListenerEndpoint> endpoints = new ArrayList<>();
        for (AnnouncedEndpoint e : announcement.endpoints()) {
            endpoints.add(new ListenerEndpoint(e.listener(), e.host(), e.port()));
        }
        return CODEC.encode(new WorkerEndpoints(announcement.role(), announcement.announcedAtMs(), endpoints));
    }

    /**
     * The announcement in {@code value}.
     *
     * @throws RecordDecodeException when the bytes are not one, or break a bound
     */
    public static Announcement decode(byte[] value) {
        WorkerEndpoints record = CODEC.decode(value);
        List<AnnouncedEndpoint> endpoints = new ArrayList<>();
        for (ListenerEndpoint e : record.getEndpoints()) {
            endpoints.add(new AnnouncedEndpoint(e.getListener(), e.getHost(), e.getPort()));
            if (endpoints.size() > MAX_ENDPOINTS) {
                break; // refused below
            }
        }
        Announcement announcement = new Announcement(record.getRole(), record.getAnnouncedAtMs(), endpoints);
        try {
            check(announcement);
        } catch (IllegalArgumentException e) {
            throw new RecordDecodeException(RecordDecodeException.Reason.UNDECODABLE, e.getMessage());
        }
        return announcement;
    }

    /**
     * The key as text.
     *
     * @throws RecordDecodeException when it is missing or longer than {@link #MAX_KEY_BYTES}
     */
    public static String key(byte[] key) {
        if (key == null || key.length == 0 || key.length > MAX_KEY_BYTES) {
            throw new RecordDecodeException(RecordDecodeException.Reason.UNDECODABLE, "key of "
                    + (key == null ? "no" : key.length) + " bytes (expected: 1-" + MAX_KEY_BYTES + ")");
        }
        return new String(key, StandardCharsets.UTF_8);
    }

    /**
     * Refuses an announcement that breaks a bound.
     *
     * @throws IllegalArgumentException naming the first bound broken
     */
    public static void check(Announcement announcement) {
        name("role", announcement.role());
        if (announcement.endpoints().size() > MAX_ENDPOINTS) {
            throw new IllegalArgumentException("endpoints: " + announcement.endpoints().size()
                    + " or more (expected: at most " + MAX_ENDPOINTS + ")");
        }
        for (AnnouncedEndpoint e : announcement.endpoints()) {
            name("listener", e.listener());
            if (e.host().isEmpty() || e.host().length() > MAX_HOST || e.host().chars().anyMatch(c -> c <= ' ' || c >= 0x7F)) {
                throw new IllegalArgumentException("host: '" + shortened(e.host()) + "' (expected: 1-" + MAX_HOST
                        + " printable ASCII characters)");
            }
            if (e.port() < 1 || e.port() > 65_535) {
                throw new IllegalArgumentException("port: " + e.port() + " (expected: 1-65535)");
            }
        }
    }

    private static void name(String what, String value) {
        if (value.isEmpty() || value.length() > MAX_NAME || value.chars().anyMatch(c -> c <= ' ' || c >= 0x7F)) {
            throw new IllegalArgumentException(what + ": '" + shortened(value) + "' (expected: 1-" + MAX_NAME
                    + " printable ASCII characters)");
        }
    }

    private static String shortened(String s) {
        String printable = s.replaceAll("[^\\x21-\\x7E]", "?");
        return printable.length() <= 40 ? printable : printable.substring(0, 40) + "...";
    }
}
