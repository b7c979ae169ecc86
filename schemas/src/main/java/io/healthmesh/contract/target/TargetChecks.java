package io.healthmesh.contract.target;

import com.fasterxml.jackson.databind.JsonNode;
import io.healthmesh.core.target.TargetValidator;
import io.healthmesh.core.target.Violation;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Checks the targets of one file on every core while the reader goes on parsing: targets are handed over in chunks
 * and each chunk's node trees are dropped once checked, so a file of a million targets is never held as a million
 * trees. Results come back in the order the targets were added, so entries and problems read exactly as one thread
 * would list them. At most a few chunks wait at once: a slow check slows the parser, it does not fill the heap.
 */
final class TargetChecks implements AutoCloseable {

    /** Targets per chunk handed to a checking thread. */
    static final int CHUNK = 1_024;

    /** One target read and checked: its entry when valid, its problems otherwise. */
    record Checked(TargetFileReader.Entry entry, List<String> errors) {
    }

    private final String source;
    private final ExecutorService pool;
    private final int maxInFlight;
    private final ArrayDeque<Future<List<Checked>>> inFlight = new ArrayDeque<>();
    private final List<Checked> done = new ArrayList<>();
    private List<JsonNode> chunk = new ArrayList<>(CHUNK);
    private int added;

    TargetChecks(String source) {
        this.source = source;
        int threads = Runtime.getRuntime().availableProcessors();
        this.pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "target-checks");
            t.setDaemon(true);
            return t;
        });
        this.maxInFlight = 2 * threads;
    }

    /** Adds the next target of the file (its position is the count added so far, from 1). */
    void add(JsonNode target) {
        chunk.add(target);
        added++;
        if (chunk.size() == CHUNK) {
            submit();
        }
    }

    /** Every target added, checked, in the order added. */
    List<Checked> results() {
        submit();
        while (!inFlight.isEmpty()) {
            collectOldest();
        }
        return done;
    }

    private void submit() {
        if (chunk.isEmpty()) {
            return;
        }
        List<JsonNode> nodes = chunk;
        int firstPosition = added - nodes.size() + 1;
        chunk = new ArrayList<>(CHUNK);
        inFlight.add(pool.submit(() -> {
            List<Checked> out = new ArrayList<>(nodes.size());
            for (int i = 0; i < nodes.size(); i++) {
                out.add(check(source, nodes.get(i), firstPosition + i));
            }
            return out;
        }));
        while (inFlight.size() > maxInFlight) {
            collectOldest();
        }
    }

    private void collectOldest() {
        try {
            done.addAll(inFlight.removeFirst().get());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking " + source, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException("checking " + source + " failed: " + e.getCause(), e.getCause());
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }

    /** Reads, validates and encodes one target at {@code position} (from 1) of {@code source}. */
    static Checked check(String source, JsonNode node, int position) {
        if (!node.isObject()) {
            return new Checked(null, List.of(source + ": target #" + position + ": " + TargetFields.describe(node)
                    + " (expected: a map of target fields)"));
        }
        TargetNodeReader.Read read = TargetNodeReader.read(node);
        List<Violation> problems = new ArrayList<>(read.problems());
        Set<String> reported = new HashSet<>();
        problems.forEach(p -> reported.add(p.field()));
        for (Violation v : TargetValidator.validate(read.spec())) {
            // a field whose value could not be read was replaced by its default: do not report it twice
            if (!reported.contains(v.field())) {
                problems.add(v);
            }
        }
        byte[] encoded = null;
        if (problems.isEmpty()) {
            // the workers refuse a definition above the encoded-size bound before decoding it: so does apply
            encoded = TargetSpecs.encode(read.spec());
            problems.addAll(TargetValidator.validateEncodedSize(TargetSpecs.encodedSize(encoded)));
        }
        if (problems.isEmpty()) {
            return new Checked(new TargetFileReader.Entry(source, position, read.spec(), encoded), List.of());
        }
        String who = TargetFileReader.label(read.spec().id(), position);
        return new Checked(null, problems.stream().map(p -> source + ": " + who + ": " + p).toList());
    }
}
