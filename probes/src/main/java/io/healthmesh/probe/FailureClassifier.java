package io.healthmesh.probe;

import io.healthmesh.core.probe.InconclusiveCause;
import io.healthmesh.core.probe.Outcome;
import io.netty.channel.unix.Errors;

import java.net.BindException;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.PortUnreachableException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.concurrent.RejectedExecutionException;
import javax.net.ssl.SSLException;

/**
 * Maps what went wrong in a probe to an {@link Outcome}: the one place that reads exceptions, so that the
 * protocol classes only pass them on. The prober's own exhaustion (a refused task, no memory, no file descriptor,
 * no local port) is {@code INCONCLUSIVE}. Causes are followed (Netty wraps TLS failures in a
 * {@code DecoderException}).
 */
public final class FailureClassifier {

    private static final int MAX_DEPTH = 8;
    /** {@code EADDRINUSE} and {@code EADDRNOTAVAIL} on Linux (asm-generic/errno.h), where Netty's native socket runs. */
    private static final int EADDRINUSE = 98;
    private static final int EADDRNOTAVAIL = 99;

    private FailureClassifier() {
    }

    static Outcome outcome(Throwable failure) {
        Throwable t = failure;
        for (int depth = 0; t != null && depth < MAX_DEPTH; depth++, t = t.getCause()) {
            Outcome outcome = direct(t);
            if (outcome != null) {
                return outcome;
            }
        }
        return Outcome.ERROR;
    }

    /**
     * Why an {@link Outcome#INCONCLUSIVE} {@code failure} is the prober's own: {@code local-ports} when it found no
     * local address and port, else {@code internal-error}.
     */
    public static InconclusiveCause inconclusiveCause(Throwable failure) {
        Throwable t = failure;
        for (int depth = 0; t != null && depth < MAX_DEPTH; depth++, t = t.getCause()) {
            if (noLocalPort(t)) {
                return InconclusiveCause.LOCAL_PORTS;
            }
        }
        return InconclusiveCause.INTERNAL_ERROR;
    }

    /**
     * The kernel found no local address and port for the socket: its ephemeral ports are used up (a {@code connect}
     * or a {@code bind} to port 0), or the source address is not the host's. Netty's native socket carries the errno;
     * the JDK's sockets and Netty's connect errors say it in a {@code BindException} or the errno's text.
     */
    private static boolean noLocalPort(Throwable t) {
        if (t instanceof Errors.NativeIoException nativeError) {
            int errno = -nativeError.expectedErr();
            return errno == EADDRINUSE || errno == EADDRNOTAVAIL;
        }
        if (t instanceof BindException) {
            return true;
        }
        String message = t.getMessage();
        return t instanceof java.net.SocketException && message != null
                && (message.contains("Cannot assign requested address") || message.contains("Address already in use"));
    }

    private static Outcome direct(Throwable t) {
        if (noLocalPort(t)) {
            return Outcome.INCONCLUSIVE; // the prober's own ports or source address: says nothing about the target
        }
        if (t instanceof RejectedExecutionException || t instanceof VirtualMachineError) {
            return Outcome.INCONCLUSIVE; // the prober's own executor or memory: says nothing about the target
        }
        if (t instanceof SSLException) {
            return Outcome.TLS_FAILURE;
        }
        if (t instanceof PortUnreachableException) {
            return Outcome.PORT_UNREACHABLE;
        }
        if (t instanceof NoRouteToHostException) {
            return Outcome.HOST_UNREACHABLE;
        }
        if (t instanceof UnknownHostException) {
            return Outcome.DNS_FAILURE;
        }
        String message = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
        if (t instanceof ConnectException && message.contains("refused")) {
            return Outcome.CONNECTION_REFUSED;
        }
        if (message.contains("too many open files")) {
            return Outcome.INCONCLUSIVE; // the prober's own file descriptor limit
        }
        if (message.contains("connection reset") || message.contains("broken pipe")) {
            return Outcome.CONNECTION_RESET;
        }
        if (message.contains("unreachable") || message.contains("no route to host")) {
            return Outcome.HOST_UNREACHABLE;
        }
        return null;
    }

    /** True when the prober's own exhaustion (a refused task, no memory, no descriptor, no port) is in the chain. */
    public static boolean isLocalTrouble(Throwable failure) {
        Throwable t = failure;
        for (int depth = 0; t != null && depth < MAX_DEPTH; depth++, t = t.getCause()) {
            if (t instanceof UnknownHostException) {
                continue; // a name server's answer wraps nothing of ours
            }
            if (direct(t) == Outcome.INCONCLUSIVE) {
                return true;
            }
        }
        return false;
    }

    /**
     * A short description: the innermost message, prefixed by its type; a TLS failure by its kind only
     * ({@link TlsFailures}), since its messages carry what the server sent.
     */
    public static String detail(Throwable failure) {
        String tls = TlsFailures.describe(failure);
        if (tls != null) {
            return tls;
        }
        Throwable root = failure;
        for (int depth = 0; root.getCause() != null && depth < MAX_DEPTH; depth++) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return message == null || message.isBlank() ? root.getClass().getSimpleName()
                : root.getClass().getSimpleName() + ": " + message;
    }
}
