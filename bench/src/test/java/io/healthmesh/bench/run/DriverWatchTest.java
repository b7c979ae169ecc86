package io.healthmesh.bench.run;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A real child JVM, as the driver starts its workers: it must end when its standard input does. */
class DriverWatchTest {

    /** The child: watches its standard input, then waits for ever; with {@code hang}, so does its shutdown hook. */
    public static final class Child {
        public static void main(String[] args) throws InterruptedException {
            if (args.length > 0 && args[0].equals("hang")) {
                // a worker whose close waits for a broker that is gone
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    try {
                        Thread.sleep(Long.MAX_VALUE);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
            }
            DriverWatch.exitWhenStdinCloses(3);
            System.out.println("watching");
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE);
        }
    }

    @Test
    void aWorkerEndsWhenItsDriverIsGone() throws Exception {
        endsWhenItsInputCloses("run");
    }

    @Test
    void aWorkerWhoseShutdownHangsIsHaltedAfterTheBound() throws Exception {
        long start = System.nanoTime();
        endsWhenItsInputCloses("hang");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
                .isGreaterThanOrEqualTo(DriverWatch.SHUTDOWN_BOUND_MS);
    }

    private static void endsWhenItsInputCloses(String mode) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
                Child.class.getName(), mode)).redirectErrorStream(true).start();
        try {
            byte[] line = new byte[8];
            assertThat(child.getInputStream().readNBytes(line, 0, 8)).isEqualTo(8);
            assertThat(new String(line)).isEqualTo("watching");
            assertThat(child.waitFor(300, TimeUnit.MILLISECONDS)).as("still running while its input is open").isFalse();
            child.getOutputStream().close(); // what the operating system does when the driver's JVM ends
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(child.exitValue()).isEqualTo(3);
        } finally {
            child.destroyForcibly();
        }
    }
}
