package io.healthmesh.bench.run;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A real child JVM, as the driver starts its workers: it must end when its standard input does. */
class DriverWatchTest {

    /** The child: watches its standard input, then waits for ever. */
    public static final class Child {
        public static void main(String[] args) throws InterruptedException {
            DriverWatch.exitWhenStdinCloses(3);
            System.out.println("watching");
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE);
        }
    }

    @Test
    void aWorkerEndsWhenItsDriverIsGone() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
                Child.class.getName())).redirectErrorStream(true).start();
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
