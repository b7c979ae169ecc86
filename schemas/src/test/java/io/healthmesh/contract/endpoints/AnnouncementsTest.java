package io.healthmesh.contract.endpoints;

import io.healthmesh.contract.serde.RecordDecodeException;
import io.healthmesh.contract.serde.SingleObjectCodec;
import io.healthmesh.schema.ListenerEndpoint;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The endpoints record: its encoding, its bounds on both sides, and where a bound listener is announced. */
class AnnouncementsTest {

    private static final Announcement ONE = new Announcement("aggregator", 1_700_000_000_000L,
            List.of(new AnnouncedEndpoint("http", "10.0.0.5", 8080), new AnnouncedEndpoint("ops", "fd00::5", 9100)));

    @Test
    void anAnnouncementRoundTrips() {
        byte[] bytes = Announcements.encode(ONE);
        assertThat(bytes[0] & 0xFF).isEqualTo(0xC3);
        assertThat(Announcements.decode(bytes)).isEqualTo(ONE);
    }

    @Test
    void theBoundsAreRefusedWhenWritingAndWhenReading() {
        List<AnnouncedEndpoint> many = IntStream.rangeClosed(1, Announcements.MAX_ENDPOINTS + 1)
                .mapToObj(i -> new AnnouncedEndpoint("http", "10.0.0." + (i % 250), 1000 + i)).toList();
        assertThatThrownBy(() -> Announcements.encode(new Announcement("x", 1, many)))
                .hasMessageContaining("expected: at most 64");
        assertThatThrownBy(() -> Announcements.encode(endpoint("a".repeat(256), 80))).hasMessageContaining("host");
        assertThatThrownBy(() -> Announcements.encode(endpoint("10.0.0.1", 0))).hasMessageContaining("port: 0");
        assertThatThrownBy(() -> Announcements.encode(endpoint("10.0.0.1", 65_536))).hasMessageContaining("port");
        assertThatThrownBy(() -> Announcements.encode(endpoint("bad host", 80))).hasMessageContaining("host");
        // a writer that skips the checks: the reader refuses the same bounds
        SingleObjectCodec<io.healthmesh.schema.WorkerEndpoints> raw = new SingleObjectCodec<>(
                io.healthmesh.schema.WorkerEndpoints.getClassSchema(), Announcements.MAX_BYTES);
        List<ListenerEndpoint> tooMany = new ArrayList<>();
        many.forEach(e -> tooMany.add(new ListenerEndpoint(e.listener(), e.host(), e.port())));
        assertThatThrownBy(() -> Announcements.decode(raw.encode(
                new io.healthmesh.schema.WorkerEndpoints("x", 1L, tooMany))))
                .isInstanceOf(RecordDecodeException.class).hasMessageContaining("at most 64");
        assertThatThrownBy(() -> Announcements.decode(raw.encode(new io.healthmesh.schema.WorkerEndpoints("x", 1L,
                List.of(new ListenerEndpoint("http", "10.0.0.1", 70_000))))))
                .isInstanceOf(RecordDecodeException.class).hasMessageContaining("port: 70000");
    }

    @Test
    void bytesThatAreNoAnnouncementAreRefusedUnread() {
        assertThatThrownBy(() -> Announcements.decode("not an announcement".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(RecordDecodeException.class).hasMessageContaining("single-object");
        byte[] good = Announcements.encode(ONE);
        byte[] otherSchema = good.clone();
        otherSchema[5] ^= 1;
        assertThatThrownBy(() -> Announcements.decode(otherSchema)).isInstanceOf(RecordDecodeException.class)
                .extracting(e -> ((RecordDecodeException) e).reason())
                .isEqualTo(RecordDecodeException.Reason.UNKNOWN_SCHEMA);
        // a role whose length prefix claims a gigabyte: refused before Avro allocates it
        byte[] huge = Arrays.copyOf(good, 16);
        huge[10] = (byte) 0x80;
        huge[11] = (byte) 0x80;
        huge[12] = (byte) 0x80;
        huge[13] = (byte) 0x80;
        huge[14] = (byte) 0x08;
        assertThatThrownBy(() -> Announcements.decode(huge)).isInstanceOf(RecordDecodeException.class);
        assertThatThrownBy(() -> Announcements.decode(new byte[Announcements.MAX_BYTES + 1]))
                .isInstanceOf(RecordDecodeException.class).hasMessageContaining("at most " + Announcements.MAX_BYTES);
        assertThatThrownBy(() -> Announcements.key(new byte[Announcements.MAX_KEY_BYTES + 1]))
                .isInstanceOf(RecordDecodeException.class);
        assertThatThrownBy(() -> Announcements.key(null)).isInstanceOf(RecordDecodeException.class);
    }

    @Test
    void aWildcardBindIsAnnouncedAtEveryAddressOfTheHostAndANameAtItsAddressesToo() throws Exception {
        Set<InetAddress> host = Set.of(InetAddress.getByName("10.0.0.5"));
        List<AnnouncedEndpoint> bound = List.of(new AnnouncedEndpoint("http", "0.0.0.0", 8080),
                new AnnouncedEndpoint("ops", "127.0.0.1", 9100), new AnnouncedEndpoint("xds", "::", 18000),
                new AnnouncedEndpoint("query", "aggregator-1", 8080));
        List<AnnouncedEndpoint> reachable = EndpointAnnouncer.reachable(bound, host,
                name -> List.of(addressOf("10.0.0.6")));
        assertThat(reachable).containsExactly(new AnnouncedEndpoint("http", "10.0.0.5", 8080),
                new AnnouncedEndpoint("ops", "127.0.0.1", 9100), new AnnouncedEndpoint("xds", "10.0.0.5", 18000),
                new AnnouncedEndpoint("query", "aggregator-1", 8080), new AnnouncedEndpoint("query", "10.0.0.6", 8080));
        List<AnnouncedEndpoint> wide = EndpointAnnouncer.reachable(List.of(new AnnouncedEndpoint("http", "0.0.0.0", 1)),
                Set.copyOf(IntStream.range(0, 100).mapToObj(i -> addressOf("10.1.0." + i)).toList()), n -> List.of());
        assertThat(wide).hasSize(Announcements.MAX_ENDPOINTS);
        assertThat(EndpointAnnouncer.instanceId("prober", bound)).startsWith("prober@").endsWith(":8080");
    }

    private static Announcement endpoint(String host, int port) {
        return new Announcement("x", 1, List.of(new AnnouncedEndpoint("http", host, port)));
    }

    private static InetAddress addressOf(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
