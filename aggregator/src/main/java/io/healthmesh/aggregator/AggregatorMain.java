package io.healthmesh.aggregator;

import io.healthmesh.ops.Settings;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the aggregator until the process is stopped: {@code AggregatorMain [settings.properties]}; settings from the
 * file, overridden by {@code HEALTHMESH_*} environment variables (see docs/CONFIGURATION.md). The CLI's
 * {@code healthmesh aggregator} does the same.
 */
public final class AggregatorMain {

    private AggregatorMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length > 1) {
            System.err.println("usage: AggregatorMain [settings.properties]");
            System.exit(2);
        }
        AggregatorConfig config;
        try {
            config = AggregatorConfig.from(Settings.load(args.length == 1 ? Path.of(args[0]) : null, System.getenv()));
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        AggregatorWorker worker = AggregatorWorker.start(config);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            worker.close();
            stopped.countDown();
        }, "healthmesh-aggregator-shutdown"));
        stopped.await();
    }
}
