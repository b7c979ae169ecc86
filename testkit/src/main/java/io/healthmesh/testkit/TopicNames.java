package io.healthmesh.testkit;

import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * Topic names that no other test in the run uses: {@code <base>-<sequence>-<random>}. The sequence keeps names
 * unique within a JVM; the random part keeps them unique on a broker that outlives the JVM (a reused container).
 */
final class TopicNames {

    /** Kafka's own limit on a topic name (the log directory adds a partition suffix). */
    static final int MAX_LENGTH = 249;
    private static final Pattern LEGAL = Pattern.compile("[a-zA-Z0-9._-]+");
    /** Room for "-", a 19-digit sequence, "-" and 6 hex digits. */
    private static final int SUFFIX_ROOM = 1 + 19 + 1 + 6;

    private final AtomicLong sequence = new AtomicLong();

    /** A new topic name starting with {@code base}. */
    String unique(String base) {
        Objects.requireNonNull(base, "base");
        if (!LEGAL.matcher(base).matches()) {
            throw new IllegalArgumentException("base: '" + base + "' (expected: letters, digits, '.', '_' or '-')");
        }
        if (base.length() > MAX_LENGTH - SUFFIX_ROOM) {
            throw new IllegalArgumentException("base: " + base.length() + " characters (expected: 1.."
                    + (MAX_LENGTH - SUFFIX_ROOM) + ")");
        }
        int random = ThreadLocalRandom.current().nextInt(1 << 24);
        return base + "-" + sequence.incrementAndGet() + "-" + String.format("%06x", random);
    }
}
