package io.healthmesh.bench.run;

import io.healthmesh.aggregator.AggregatorConfig;
import io.healthmesh.aggregator.AggregatorWorker;
import io.healthmesh.ops.Settings;
import io.healthmesh.prober.ProberConfig;
import io.healthmesh.prober.ProberWorker;
import io.healthmesh.testkit.ChildWorker;

import java.nio.file.Path;
import java.util.Map;

/**
 * {@code WorkerMain prober|aggregator <settings file>}: the child-JVM entry point of {@link ChildJvm}. It starts
 * the same worker classes the {@code healthmesh} command starts, with the same settings loading, and stops them
 * cleanly on SIGTERM, so a JFR recording is written on exit.
 */
public final class WorkerMain {

    private WorkerMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 2 || !(args[0].equals("prober") || args[0].equals("aggregator"))) {
            System.err.println("usage: WorkerMain prober|aggregator <settings file>");
            System.exit(2);
            return;
        }
        Map<String, String> settings = Settings.load(Path.of(args[1]), Map.of());
        AutoCloseable worker = args[0].equals("prober")
                ? ProberWorker.start(ProberConfig.from(settings))
                : AggregatorWorker.start(AggregatorConfig.from(settings));
        System.out.println("worker started: " + args[0]);
        JitActivity.startWriting(System.getProperty(JitActivity.FILE_PROPERTY));
        // the driver's shutdown hook (ChildJvm) cannot cover a halt of its JVM: this side watches too
        DriverWatch.exitWhenStdinCloses(3);
        ChildWorker.runUntilShutdown(worker, "bench-worker-shutdown");
    }
}
