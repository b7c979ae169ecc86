package io.healthmesh.bench;

import io.healthmesh.status.board.LatencyPoint;
import io.healthmesh.status.board.StatusBoard;
import io.healthmesh.status.board.TargetRow;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The status board's own heap per target: {@code N} targets (default 100,000), each with a state event, one label
 * and a history filled to {@code HISTORY} points, measured as the live heap after full collections with and without
 * the board (the targets' rows, ids and labels exist in both, so only what the board adds is counted).
 *
 * <pre>java -XX:+UseSerialGC -jar bench/target/bench.jar status-board-heap HISTORY [N]</pre>
 */
@Command(name = "status-board-heap", mixinStandardHelpOptions = true, description = "The status board's own heap "
        + "per target (run with -XX:+UseSerialGC).")
public final class StatusBoardHeap implements Callable<Integer> {

    @Parameters(index = "0", description = "History points per target.")
    int history;
    @Parameters(arity = "0..1", index = "1", defaultValue = "100000", description = "Targets (default ${DEFAULT-VALUE}).")
    int n;

    @Override
    public Integer call() {
        List<TargetRow> rows = new ArrayList<>(n);
        List<Map<String, String>> labels = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            rows.add(new TargetRow("bench-tcp-" + i, "group-" + (i % 100), "HEALTHY", null, 1_000, "SUCCESS", null,
                    false, 1_500L, 900L, "MAJORITY", List.of(), 1_000));
            labels.add(Map.of("env", "bench"));
        }
        long before = liveHeap();
        StatusBoard board = new StatusBoard(history);
        for (int i = 0; i < n; i++) {
            board.putLabels(rows.get(i).id(), labels.get(i));
            board.putTarget(rows.get(i));
        }
        board.discardChanges();
        for (int point = 1; point <= history; point++) {
            for (TargetRow row : rows) {
                board.addResult(row.id(), new LatencyPoint(point, 100, true));
            }
        }
        board.discardChanges();
        long after = liveHeap();
        if (board.targets().size() != n) {
            throw new IllegalStateException("the board holds " + board.targets().size() + " targets, not " + n);
        }
        System.out.printf("status board, %d targets, history %d: %.0f B per target%n", n, history,
                (after - before) / (double) n);
        return 0;
    }

    private static long liveHeap() {
        Runtime runtime = Runtime.getRuntime();
        for (int i = 0; i < 5; i++) {
            System.gc();
        }
        return runtime.totalMemory() - runtime.freeMemory();
    }
}
