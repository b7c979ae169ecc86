package io.healthmesh.prober;

import io.healthmesh.probe.ProbeSource;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.regex.Pattern;

/** Reads {@code probe.source.address} and {@code l4.marker}; problems are added, never thrown. */
final class ProbeSources {

    /** An IPv4 or IPv6 literal: no name is resolved for a bind address. */
    private static final Pattern IP_LITERAL = Pattern.compile("[0-9.]+|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

    private ProbeSources() {
    }

    static ProbeSource read(String address, String marker, List<String> problems) {
        InetAddress bind = null;
        if (address != null && !address.isBlank()) {
            String text = address.trim();
            try {
                if (!IP_LITERAL.matcher(text).matches()) {
                    throw new UnknownHostException(text);
                }
                bind = InetAddress.getByName(text);
                // a foreign address would make every probe fail at bind time: refuse it at start instead
                if (!bind.isLoopbackAddress() && NetworkInterface.getByInetAddress(bind) == null) {
                    problems.add("probe.source.address: " + text + " (expected: an address of this host's interfaces)");
                    bind = null;
                }
            } catch (SocketException e) {
                problems.add("probe.source.address: " + text + " (cannot list the interfaces: " + e.getMessage() + ")");
                bind = null;
            } catch (UnknownHostException e) {
                problems.add("probe.source.address: " + text + " (expected: an IP address of this host)");
            }
        }
        try {
            return new ProbeSource(bind, marker);
        } catch (IllegalArgumentException e) {
            problems.add("l4.marker: " + e.getMessage());
            return new ProbeSource(bind, "");
        }
    }
}
