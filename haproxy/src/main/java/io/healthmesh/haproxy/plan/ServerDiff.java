package io.healthmesh.haproxy.plan;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The difference between what a backend should hold and what HAProxy holds, as Runtime API commands. Only what
 * differs gets a command, each one moving the server straight to its desired value, so applying the result twice
 * is the same as once and two drivers that read the same state send nothing the other undoes. Changes that put
 * servers into service come first, those that take servers out after, so a backend never loses its last ready
 * server in the middle of a swap.
 */
public final class ServerDiff {

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

    private ServerDiff() {
    }

    /** The changes that take {@code actual} to {@code desired}. */
    public static List<ServerChange> of(DesiredBackend desired, List<ActualServer> actual) {
        String be = desired.backend();
        Map<String, ActualServer> held = new LinkedHashMap<>();
        actual.forEach(a -> held.put(a.name(), a));
        List<ServerChange> changes = new ArrayList<>();
        for (DesiredServer d : desired.servers()) {
            ActualServer a = held.remove(d.name());
            if (a == null) {
                changes.add(add(be, d));
            } else {
                ServerChange c = update(be, d, a);
                if (c != null) {
                    changes.add(c);
                }
            }
        }
        held.values().stream().sorted(Comparator.comparing(ActualServer::name))
                .forEach(a -> changes.add(remove(be, a)));
        changes.sort(Comparator.comparing(ServerChange::takesOut));
        return changes;
    }

    private static ServerChange add(String be, DesiredServer d) {
        String id = be + "/" + d.name();
        List<String> commands = new ArrayList<>();
        // a dynamic server starts in maintenance: it takes traffic only once set ready
        commands.add("add server " + id + " " + hostPort(d.address(), d.port()) + " weight " + d.weight());
        if (d.state() != ServerState.MAINT) {
            commands.add(setState(id, d.state()));
        }
        return new ServerChange(be, d.name(), commands, false);
    }

    private static ServerChange update(String be, DesiredServer d, ActualServer a) {
        String id = be + "/" + d.name();
        boolean ip = isIp(d.address());
        boolean sameAddress = ip ? sameIp(d.address(), a.address()) : d.address().equalsIgnoreCase(
                Objects.requireNonNullElse(a.fqdn(), ""));
        if (!sameAddress && !ip) {
            // a host name cannot be set at run time without resolvers: the server is replaced (removed now, added
            // back by the next pass)
            return remove(be, a);
        }
        List<String> commands = new ArrayList<>();
        if (!sameAddress || d.port() != a.port()) {
            commands.add("set server " + id + " addr " + d.address() + " port " + d.port());
        }
        if (d.weight() != a.weight()) {
            commands.add("set server " + id + " weight " + d.weight());
        }
        boolean takesOut = false;
        if (d.state() != a.state()) {
            commands.add(setState(id, d.state()));
            takesOut = a.state() == ServerState.READY;
        }
        return commands.isEmpty() ? null : new ServerChange(be, d.name(), commands, takesOut);
    }

    private static ServerChange remove(String be, ActualServer a) {
        String id = be + "/" + a.name();
        List<String> commands = new ArrayList<>();
        if (a.state() != ServerState.MAINT) {
            commands.add(setState(id, ServerState.MAINT));
        }
        commands.add("del server " + id);
        return new ServerChange(be, a.name(), commands, a.state() == ServerState.READY);
    }

    private static String setState(String id, ServerState state) {
        return "set server " + id + " state " + state.word();
    }

    /** {@code host:port}, IPv6 in brackets. */
    static String hostPort(String address, int port) {
        return (address.contains(":") ? "[" + address + "]" : address) + ":" + port;
    }

    static boolean isIp(String address) {
        return IPV4.matcher(address).matches() || IPV6.matcher(address).matches();
    }

    /** Two IP literals naming the same address, whatever their spelling ({@code ::1}, {@code 0:0::1}). */
    private static boolean sameIp(String wanted, String held) {
        if (held == null) {
            return false;
        }
        if (wanted.equalsIgnoreCase(held)) {
            return true;
        }
        if (!isIp(held)) {
            return false;
        }
        try {
            // literals only (checked above): no name lookup happens here
            return InetAddress.getByName(wanted).equals(InetAddress.getByName(held));
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
