package io.healthmesh.prober;

import io.healthmesh.ops.Settings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * {@code java io.healthmesh.prober.ProberMain [settings.properties]}: a prober worker configured from an
 * optional properties file and {@code HEALTHMESH_*} environment variables, stopped cleanly on SIGTERM.
 */
public final class ProberMain {

    private static final Logger LOG = LoggerFactory.getLogger(ProberMain.class);

    private ProberMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length > 1) {
            System.err.println("usage: ProberMain [settings.properties]");
            System.exit(2);
        }
        ProberConfig config;
        try {
            config = ProberConfig.from(Settings.load(args.length == 1 ? Path.of(args[0]) : null, System.getenv()));
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        LOG.info("starting with {}", config);
        ProberWorker worker = ProberWorker.start(config);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            worker.close();
            stopped.countDown();
        }, "healthmesh-prober-shutdown"));
        stopped.await();
    }
}
