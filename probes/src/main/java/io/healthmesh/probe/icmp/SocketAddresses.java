package io.healthmesh.probe.icmp;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/** {@code struct sockaddr_in} and {@code sockaddr_in6} as bytes for {@code sendto}/{@code recvfrom}. */
final class SocketAddresses {

    static final int SOCKADDR_IN = 16;
    static final int SOCKADDR_IN6 = 28;

    private SocketAddresses() {
    }

    static byte[] encode(InetAddress address) {
        boolean v6 = address instanceof Inet6Address;
        ByteBuffer b = ByteBuffer.allocate(v6 ? SOCKADDR_IN6 : SOCKADDR_IN);
        b.order(ByteOrder.nativeOrder()).putShort((short) (v6 ? LibC.AF_INET6 : LibC.AF_INET));
        b.order(ByteOrder.BIG_ENDIAN).putShort((short) 0); // port: none for ICMP
        if (v6) {
            b.putInt(0); // flow info
            b.put(address.getAddress());
            b.order(ByteOrder.nativeOrder()).putInt(((Inet6Address) address).getScopeId());
        } else {
            b.put(address.getAddress());
        }
        return b.array();
    }

    /** The IP address bytes of a received {@code sockaddr}, for comparing with the address an echo went to. */
    static byte[] addressBytes(byte[] sockaddr, boolean v6) {
        return v6 ? Arrays.copyOfRange(sockaddr, 8, 24) : Arrays.copyOfRange(sockaddr, 4, 8);
    }
}
