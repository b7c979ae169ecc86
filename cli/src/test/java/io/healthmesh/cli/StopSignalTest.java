package io.healthmesh.cli;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Stopping a command in the JVM that runs it, as SIGTERM would, without ending the JVM. */
class StopSignalTest {

    @Test
    void stopEndsTheWaitOfTheCommandOnThatThreadOnlyAndIsForgottenOnceClosed() throws Exception {
        CountDownLatch installed = new CountDownLatch(1);
        CompletableFuture<Boolean> signalled = new CompletableFuture<>();
        CountDownLatch closedLatch = new CountDownLatch(1);
        Thread command = new Thread(() -> {
            StopSignal signal = StopSignal.install("test");
            installed.countDown();
            try {
                boolean came = signal.await(Duration.ofSeconds(60));
                signalled.complete(came && signal.signalled());
            } catch (InterruptedException e) {
                signalled.completeExceptionally(e);
            } finally {
                signal.closed();
                closedLatch.countDown();
            }
        }, "stop-signal-test");
        command.start();
        assertThat(installed.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(StopSignal.stop(Thread.currentThread())).as("no command runs on this thread").isFalse();
        assertThat(StopSignal.stop(command)).isTrue();
        assertThat(signalled.get(10, TimeUnit.SECONDS)).as("the wait ended by the signal, well before 60 s").isTrue();
        assertThat(closedLatch.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(StopSignal.stop(command)).as("a closed command is forgotten").isFalse();
        command.join(10_000);
    }
}
