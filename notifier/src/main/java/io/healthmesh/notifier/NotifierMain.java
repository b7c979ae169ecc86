package io.healthmesh.notifier;

import io.healthmesh.ops.Settings;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Runs a notifier until the process is stopped: {@code NotifierMain [settings.properties]}; settings from the file,
 * overridden by {@code HEALTHMESH_*} environment variables. The CLI's {@code healthmesh notifier} does the same.
 */
public final class NotifierMain {

    private NotifierMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length > 1) {
            System.err.println("usage: NotifierMain [settings.properties]");
            System.exit(2);
        }
        NotifierConfig config;
        try {
            config = NotifierConfig.from(Settings.load(args.length == 1 ? Path.of(args[0]) : null, System.getenv()));
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        NotifierWorker worker = NotifierWorker.start(config);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            worker.close();
            stopped.countDown();
        }, "healthmesh-notifier-shutdown"));
        stopped.await();
    }
}
