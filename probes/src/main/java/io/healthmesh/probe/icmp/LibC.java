package io.healthmesh.probe.icmp;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;

/**
 * The few libc calls the pinger needs, through JNA. Errors are read with {@code Native.getLastError()}
 * (JNA keeps errno per thread after every call). Constants are Linux's (x86-64 and arm64 share them).
 */
interface LibC extends Library {

    int AF_INET = 2;
    int AF_INET6 = 10;
    int SOCK_DGRAM = 2;
    int SOCK_RAW = 3;
    int SOCK_NONBLOCK = 0x800;
    int SOCK_CLOEXEC = 0x80000;
    int O_NONBLOCK = 0x800;
    int O_CLOEXEC = 0x80000;
    int IPPROTO_ICMP = 1;
    int IPPROTO_ICMPV6 = 58;
    int SOL_RAW = 255;
    int ICMP_FILTER = 1;
    int ICMP6_FILTER = 1;
    short POLLIN = 0x1;
    int EINTR = 4;
    int EAGAIN = 11;

    static LibC load() {
        return Native.load("c", LibC.class);
    }

    int socket(int domain, int type, int protocol);

    int setsockopt(int fd, int level, int name, byte[] value, int length);

    NativeLong sendto(int fd, byte[] buffer, NativeLong length, int flags, byte[] address, int addressLength);

    NativeLong recvfrom(int fd, byte[] buffer, NativeLong length, int flags, byte[] address, IntByReference addressLength);

    int poll(Pointer fds, NativeLong count, int timeoutMillis);

    int pipe2(int[] fds, int flags);

    NativeLong read(int fd, byte[] buffer, NativeLong length);

    NativeLong write(int fd, byte[] buffer, NativeLong length);

    int close(int fd);
}
