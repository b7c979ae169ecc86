package io.healthmesh.probe.icmp;

import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.ptr.IntByReference;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One non-blocking ICMP socket of one address family, with the echoes waiting for a reply on it, keyed by
 * sequence number. Confined to the pinger's I/O thread. A ping socket only ever sees replies to its own
 * echoes (the kernel matches them by identifier); a raw socket sees every ICMP packet of the host, so replies
 * are matched by our identifier and sequence, and the reply's source must be the address pinged.
 */
final class IcmpSocket {

    private static final int RECEIVE_BUFFER = 1500;

    final int fd;
    final boolean ipv6;
    final IcmpSocketKind kind;
    private final LibC libc;
    private final int identifier;
    private final Map<Integer, PendingEcho> pending = new HashMap<>();
    private final byte[] receiveBuffer = new byte[RECEIVE_BUFFER];
    private final byte[] sourceAddress = new byte[SocketAddresses.SOCKADDR_IN6];
    private int nextSequence = ThreadLocalRandom.current().nextInt(0x10000);

    private IcmpSocket(LibC libc, int fd, boolean ipv6, IcmpSocketKind kind) {
        this.libc = libc;
        this.fd = fd;
        this.ipv6 = ipv6;
        this.kind = kind;
        this.identifier = ThreadLocalRandom.current().nextInt(0x10000);
    }

    /**
     * Opens a socket of the first permitted kind, or throws with a message that says why none could be opened
     * (including {@code net.ipv4.ping_group_range}, which decides who may open ping sockets).
     */
    static IcmpSocket open(LibC libc, boolean ipv6, IcmpSocketKind wanted) {
        List<IcmpSocketKind> kinds = wanted == IcmpSocketKind.AUTO
                ? List.of(IcmpSocketKind.PING, IcmpSocketKind.RAW) : List.of(wanted);
        List<String> failures = new ArrayList<>();
        for (IcmpSocketKind kind : kinds) {
            int type = (kind == IcmpSocketKind.PING ? LibC.SOCK_DGRAM : LibC.SOCK_RAW) | LibC.SOCK_NONBLOCK | LibC.SOCK_CLOEXEC;
            int fd = libc.socket(ipv6 ? LibC.AF_INET6 : LibC.AF_INET, type, ipv6 ? LibC.IPPROTO_ICMPV6 : LibC.IPPROTO_ICMP);
            if (fd >= 0) {
                IcmpSocket socket = new IcmpSocket(libc, fd, ipv6, kind);
                if (kind == IcmpSocketKind.RAW) {
                    socket.installFilter();
                }
                return socket;
            }
            int errno = Native.getLastError();
            failures.add(kind == IcmpSocketKind.PING
                    ? "ping socket: " + Errno.name(errno) + " (net.ipv4.ping_group_range is '" + pingGroupRange()
                      + "'; it must include the process's group)"
                    : "raw socket: " + Errno.name(errno) + " (needs CAP_NET_RAW)");
        }
        throw new IllegalStateException("ICMP" + (ipv6 ? "v6" : "") + " unavailable: " + String.join("; ", failures));
    }

    /** Raw sockets see all ICMP traffic; let the kernel drop every type except replies and errors. */
    private void installFilter() {
        if (ipv6) {
            int[] blocked = new int[8];
            Arrays.fill(blocked, -1);
            for (int type : new int[] {IcmpPackets.ECHO_REPLY_V6, IcmpPackets.UNREACHABLE_V6, IcmpPackets.TIME_EXCEEDED_V6}) {
                blocked[type >> 5] &= ~(1 << (type & 31));
            }
            ByteBuffer filter = ByteBuffer.allocate(32).order(ByteOrder.nativeOrder());
            for (int word : blocked) {
                filter.putInt(word);
            }
            libc.setsockopt(fd, LibC.IPPROTO_ICMPV6, LibC.ICMP6_FILTER, filter.array(), 32);
        } else {
            int mask = ~((1 << IcmpPackets.ECHO_REPLY_V4) | (1 << IcmpPackets.UNREACHABLE_V4) | (1 << IcmpPackets.TIME_EXCEEDED_V4));
            byte[] value = ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt(mask).array();
            libc.setsockopt(fd, LibC.SOL_RAW, LibC.ICMP_FILTER, value, 4);
        }
        // a failed filter only costs some wasted reads: the reply matching below does not depend on it
    }

    private static String pingGroupRange() {
        try {
            return Files.readString(Path.of("/proc/sys/net/ipv4/ping_group_range")).trim().replace('\t', ' ');
        } catch (Exception e) {
            return "unreadable";
        }
    }

    int pendingCount() {
        return pending.size();
    }

    /** Sends one echo; on a send error completes it at once. */
    void send(PendingEcho echo) {
        int sequence = freeSequence();
        byte[] packet = IcmpPackets.echoRequest(ipv6, identifier, sequence);
        byte[] address = SocketAddresses.encode(echo.address);
        echo.sentNanos = System.nanoTime();
        long sent = libc.sendto(fd, packet, new NativeLong(packet.length), 0, address, address.length).longValue();
        if (sent < 0) {
            int errno = Native.getLastError();
            EchoResult.Status status = errno == Errno.ENETUNREACH || errno == Errno.EHOSTUNREACH
                    ? EchoResult.Status.NO_ROUTE : EchoResult.Status.UNAVAILABLE;
            echo.complete(EchoResult.of(status, "ICMP send to " + echo.address.getHostAddress() + " failed: " + Errno.name(errno)));
            return;
        }
        pending.put(sequence, echo);
    }

    private int freeSequence() {
        // pending is bounded far below 65,536, so a free number is always found
        while (pending.containsKey(nextSequence)) {
            nextSequence = (nextSequence + 1) & 0xffff;
        }
        int sequence = nextSequence;
        nextSequence = (nextSequence + 1) & 0xffff;
        return sequence;
    }

    /** Reads every queued packet and completes the echoes they answer. */
    void receiveAll() {
        IntByReference addressLength = new IntByReference();
        for (int i = 0; i < 1024; i++) { // bounded: the next poll comes back for the rest
            addressLength.setValue(sourceAddress.length);
            long n = libc.recvfrom(fd, receiveBuffer, new NativeLong(receiveBuffer.length), 0, sourceAddress, addressLength).longValue();
            if (n < 0) {
                return; // EAGAIN: drained (other errors are reported through pending echoes timing out)
            }
            IcmpPackets.Received received = IcmpPackets.parse(receiveBuffer, (int) n, ipv6, kind == IcmpSocketKind.RAW && !ipv6);
            if (received != null) {
                onPacket(received);
            }
        }
    }

    private void onPacket(IcmpPackets.Received received) {
        if (kind == IcmpSocketKind.RAW && received.identifier() != identifier) {
            return; // another process's ping
        }
        PendingEcho echo = pending.get(received.sequence());
        if (echo == null) {
            return;
        }
        if (received.kind() == EchoResult.Status.REPLY) {
            if (!Arrays.equals(SocketAddresses.addressBytes(sourceAddress, ipv6), echo.address.getAddress())) {
                return; // same numbers, other host: not our answer
            }
            pending.remove(received.sequence());
            echo.complete(new EchoResult(EchoResult.Status.REPLY, System.nanoTime() - echo.sentNanos, null));
        } else {
            pending.remove(received.sequence());
            echo.complete(EchoResult.of(EchoResult.Status.UNREACHABLE, received.detail() + " for "
                    + echo.address.getHostAddress()));
        }
    }

    /** Completes the echoes whose deadline has passed; returns the nearest remaining deadline, or Long.MAX_VALUE. */
    long expire(long nowNanos) {
        long nearest = Long.MAX_VALUE;
        for (Iterator<PendingEcho> it = pending.values().iterator(); it.hasNext(); ) {
            PendingEcho echo = it.next();
            if (nowNanos - echo.deadlineNanos >= 0) {
                it.remove();
                echo.complete(EchoResult.of(EchoResult.Status.TIMEOUT, "no echo reply from " + echo.address.getHostAddress()));
            } else {
                nearest = Math.min(nearest, echo.deadlineNanos);
            }
        }
        return nearest;
    }

    void close(String reason) {
        for (PendingEcho echo : pending.values()) {
            echo.complete(EchoResult.of(EchoResult.Status.UNAVAILABLE, reason));
        }
        pending.clear();
        libc.close(fd);
    }
}
