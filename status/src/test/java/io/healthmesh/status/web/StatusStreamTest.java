package io.healthmesh.status.web;

import io.healthmesh.testkit.Await;
import io.healthmesh.status.board.BoardRows;
import io.healthmesh.status.board.StatusBoard;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(30)
class StatusStreamTest {

    private final ObjectMapper json = new ObjectMapper();
    private final StatusBoard board = new StatusBoard(5);
    private final StatusStream stream = new StatusStream(board, Duration.ofMillis(20), 2, json).start();

    @AfterEach
    void close() {
        stream.close();
    }

    /** A browser that records every event it receives. */
    static final class Recorder implements StatusStream.Sink {
        final LinkedBlockingQueue<String> events = new LinkedBlockingQueue<>();
        final CountDownLatch closed = new CountDownLatch(1);

        @Override
        public void write(byte[] event) {
            events.add(new String(event, StandardCharsets.UTF_8));
        }

        @Override
        public void close() {
            closed.countDown();
        }

        String next() throws InterruptedException {
            String e;
            do {
                e = events.poll(10, TimeUnit.SECONDS);
                assertThat(e).as("an event within 10 s").isNotNull();
            } while (e.startsWith(":")); // keepalive comments
            return e;
        }
    }

    private JsonNode data(String event, String name) throws IOException {
        assertThat(event).startsWith("event: " + name + "\ndata: ").endsWith("\n\n");
        return json.readTree(event.substring(event.indexOf("data: ") + 6));
    }

    @Test
    void aNewBrowserGetsTheWholeBoardThenOnlyChanges() throws Exception {
        board.putTarget(BoardRows.row("a", "g", "HEALTHY", false));
        Recorder browser = new Recorder();
        assertThat(stream.connect(browser)).isTrue();

        JsonNode snapshot = data(browser.next(), "snapshot");
        assertThat(snapshot.path("targets").get(0).path("row").path("status").asText()).isEqualTo("HEALTHY");

        board.putTarget(BoardRows.row("a", "g", "UNHEALTHY", false));
        JsonNode delta = data(browser.next(), "delta");
        assertThat(delta.path("targets")).hasSize(1);
        assertThat(delta.path("targets").get(0).path("row").path("status").asText()).isEqualTo("UNHEALTHY");
        assertThat(delta.path("seq").asLong()).isGreaterThan(snapshot.path("seq").asLong());
    }

    @Test
    void moreBrowsersThanTheLimitAreRefusedAndAClosedOneFreesItsSlot() throws Exception {
        Recorder one = new Recorder();
        Recorder two = new Recorder();
        assertThat(stream.connect(one)).isTrue();
        assertThat(stream.connect(two)).isTrue();
        assertThat(stream.connect(new Recorder())).isFalse();
        data(one.next(), "snapshot");

        stream.close();
        assertThat(one.closed.await(10, TimeUnit.SECONDS)).as("closing the stream releases every browser").isTrue();
        assertThat(two.closed.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(stream.connect(new Recorder())).as("a closed stream takes no browser").isFalse();
    }

    @Test
    void aBrowserThatFailsIsDroppedAndItsSlotReused() throws Exception {
        CountDownLatch failed = new CountDownLatch(1);
        StatusStream.Sink gone = new StatusStream.Sink() {
            @Override
            public void write(byte[] event) throws IOException {
                throw new IOException("browser went away");
            }

            @Override
            public void close() {
                failed.countDown();
            }
        };
        assertThat(stream.connect(gone)).isTrue();
        assertThat(stream.connect(new Recorder())).isTrue();
        assertThat(failed.await(10, TimeUnit.SECONDS)).isTrue();
        Await.until(Duration.ofSeconds(10), () -> stream.connect(new Recorder()),
                () -> "the failed browser's slot is free again");
    }

    @Test
    void aBrowserThatStopsReadingIsDisconnectedWithoutHoldingUpTheOthers() throws Exception {
        CountDownLatch stuck = new CountDownLatch(1);
        CountDownLatch released = new CountDownLatch(1);
        StatusStream.Sink slow = new StatusStream.Sink() {
            @Override
            public void write(byte[] event) throws IOException {
                try {
                    stuck.await(); // never reads: its writer thread blocks like one on a full socket
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public void close() {
                released.countDown();
            }
        };
        Recorder fast = new Recorder();
        stream.connect(slow);
        stream.connect(fast);
        data(fast.next(), "snapshot");
        List<String> received = new ArrayList<>();
        for (int i = 0; i < 100; i++) { // more changes than a browser's queue holds
            board.putTarget(BoardRows.row("t" + i, "g", i % 2 == 0 ? "HEALTHY" : "UNHEALTHY", false));
            received.add(data(fast.next(), "delta").path("targets").get(0).path("row").path("id").asText());
        }
        assertThat(received).hasSize(100).first().isEqualTo("t0");
        stuck.countDown();
        assertThat(released.await(10, TimeUnit.SECONDS)).as("the slow browser was let go").isTrue();
    }
}
