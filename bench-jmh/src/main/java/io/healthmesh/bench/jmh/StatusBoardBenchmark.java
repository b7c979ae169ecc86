package io.healthmesh.bench.jmh;

import io.healthmesh.status.board.LatencyPoint;
import io.healthmesh.status.board.StatusBoard;
import io.healthmesh.status.board.TargetRow;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * What the aggregator's status board pays per probe result once the feed has decoded it: {@code addResult} for a
 * target the board knows (its state event and its labels are in), over {@code targets} targets in random order,
 * with the push's turn every {@value #PUSH_EVERY} results: the board's changes discarded while no browser watches
 * ({@code watched=false}), drained into a delta when one does. Histories of the default 20 points.
 */
public class StatusBoardBenchmark extends NanosPerOperation {

    private static final int PUSH_EVERY = 10_000;

    @Param({"100000"})
    public int targets;

    @Param({"false", "true"})
    public boolean watched;

    private StatusBoard board;
    private String[] ids;
    private int[] order;
    private int next;
    private long atMs;

    @Setup(Level.Trial)
    public void setUp() {
        board = new StatusBoard(20);
        ids = new String[targets];
        for (int i = 0; i < targets; i++) {
            // fresh strings, as the feed's decoder makes them, with their hash not yet computed
            ids[i] = new String(("bench-tcp-" + i).toCharArray());
            board.putLabels(ids[i], Map.of("env", "bench"));
            board.putTarget(new TargetRow(ids[i], "group-" + (i % 100), "HEALTHY", null, 1_000, "SUCCESS", null, false,
                    1_500L, 900L, "MAJORITY", List.of(), 1_000));
        }
        board.discardChanges();
        SplittableRandom random = new SplittableRandom(42);
        order = new int[1 << 20];
        for (int i = 0; i < order.length; i++) {
            order[i] = random.nextInt(targets);
        }
    }

    @Benchmark
    public void addResult() {
        int i = next++ & (order.length - 1);
        board.addResult(new String(ids[order[i]]), new LatencyPoint(++atMs, 120, true));
        if (next % PUSH_EVERY == 0) {
            if (watched) {
                board.drain();
            } else {
                board.discardChanges();
            }
        }
    }
}
