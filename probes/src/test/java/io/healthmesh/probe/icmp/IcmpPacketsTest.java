package io.healthmesh.probe.icmp;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class IcmpPacketsTest {

    @Test
    void checksumOfAKnownPacket() {
        // RFC 1071 example words 0001 f203 f4f5 f6f7: sum ddf2, checksum 220d
        byte[] data = {0x00, 0x01, (byte) 0xf2, 0x03, (byte) 0xf4, (byte) 0xf5, (byte) 0xf6, (byte) 0xf7};
        assertThat(IcmpPackets.checksum(data, 0, data.length)).isEqualTo(0x220d);
    }

    @Test
    void ipv4RequestChecksumVerifiesToZero() {
        byte[] packet = IcmpPackets.echoRequest(false, 0x1234, 0xbeef);
        assertThat(packet[0]).isEqualTo((byte) 8);
        assertThat(IcmpPackets.checksum(packet, 0, packet.length)).isZero();
        assertThat(packet).hasSize(56);
        assertThat(new String(packet, 8, 22)).isEqualTo("healthmesh-healthcheck");
    }

    @Test
    void ipv6RequestLeavesTheChecksumToTheKernel() {
        byte[] packet = IcmpPackets.echoRequest(true, 7, 9);
        assertThat(packet[0] & 0xff).isEqualTo(128);
        assertThat(packet[2]).isZero();
        assertThat(packet[3]).isZero();
    }

    @Test
    void parsesAReplyBehindAnIpv4Header() {
        byte[] reply = IcmpPackets.echoRequest(false, 0x1234, 42);
        reply[0] = 0;
        byte[] withHeader = new byte[24 + reply.length];
        withHeader[0] = 0x46; // IHL 6: a header with options must be skipped correctly
        System.arraycopy(reply, 0, withHeader, 24, reply.length);
        IcmpPackets.Received received = IcmpPackets.parse(withHeader, withHeader.length, false, true);
        assertThat(received.kind()).isEqualTo(EchoResult.Status.REPLY);
        assertThat(received.identifier()).isEqualTo(0x1234);
        assertThat(received.sequence()).isEqualTo(42);
    }

    @Test
    void parsesAHostUnreachableQuotingOurEcho() {
        byte[] original = IcmpPackets.echoRequest(false, 0x0102, 0x0304);
        byte[] quotedIp = new byte[20];
        quotedIp[0] = 0x45;
        quotedIp[9] = 1; // protocol ICMP
        byte[] error = new byte[20 + 8 + 20 + 8];
        error[0] = 0x45;
        error[20] = 3; // destination unreachable
        error[21] = 1; // host unreachable
        System.arraycopy(quotedIp, 0, error, 28, 20);
        System.arraycopy(original, 0, error, 48, 8);
        IcmpPackets.Received received = IcmpPackets.parse(error, error.length, false, true);
        assertThat(received.kind()).isEqualTo(EchoResult.Status.UNREACHABLE);
        assertThat(received.identifier()).isEqualTo(0x0102);
        assertThat(received.sequence()).isEqualTo(0x0304);
        assertThat(received.detail()).isEqualTo("ICMP host unreachable");
    }

    @Test
    void parsesIcmpv6ReplyAndIgnoresOtherTypesAndRunts() {
        byte[] reply = IcmpPackets.echoRequest(true, 5, 6);
        reply[0] = (byte) 129;
        assertThat(IcmpPackets.parse(reply, reply.length, true, false).sequence()).isEqualTo(6);
        byte[] request = IcmpPackets.echoRequest(true, 5, 6);
        assertThat(IcmpPackets.parse(request, request.length, true, false)).isNull();
        assertThat(IcmpPackets.parse(reply, 7, true, false)).isNull();
        assertThat(IcmpPackets.parse(new byte[10], 10, false, true)).isNull();
    }
}
