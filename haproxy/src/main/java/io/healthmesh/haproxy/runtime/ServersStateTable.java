package io.healthmesh.haproxy.runtime;

import io.healthmesh.haproxy.plan.ActualServer;
import io.healthmesh.haproxy.plan.ServerState;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Parses the answer to {@code show servers state <backend>}: a version line ({@code 1}), a header naming the
 * columns ({@code # be_id be_name srv_id srv_name srv_addr ...}), one row per server. Columns are found by name, so
 * a HAProxy that adds some still parses.
 */
public final class ServersStateTable {

    /** {@code srv_admin_state} bits (HAProxy's SRV_ADMF_*): forced maintenance, maintenance from the config. */
    static final int FORCED_MAINT = 0x01;
    static final int CONFIG_MAINT = 0x04;
    static final int FORCED_DRAIN = 0x08;

    private ServersStateTable() {
    }

    /**
     * The servers of the answer, or empty when HAProxy has no such backend.
     *
     * @throws IllegalStateException when the answer is neither a table nor "no such backend"
     */
    public static Optional<List<ActualServer>> parse(String answer) {
        String text = answer.strip();
        if (text.startsWith("Can't find backend")) {
            return Optional.empty();
        }
        String[] lines = text.split("\n");
        if (lines.length < 2 || !lines[0].strip().equals("1") || !lines[1].startsWith("# ")) {
            throw new IllegalStateException("unexpected answer to show servers state: " + shorten(text));
        }
        List<String> columns = Arrays.asList(lines[1].substring(2).strip().split(" +"));
        int name = column(columns, "srv_name");
        int addr = column(columns, "srv_addr");
        int admin = column(columns, "srv_admin_state");
        int weight = column(columns, "srv_uweight");
        int fqdn = column(columns, "srv_fqdn");
        int port = column(columns, "srv_port");
        List<ActualServer> servers = new ArrayList<>();
        for (int i = 2; i < lines.length; i++) {
            if (lines[i].isBlank()) {
                continue;
            }
            String[] f = lines[i].strip().split(" +");
            if (f.length < columns.size()) {
                throw new IllegalStateException("short row in show servers state: " + shorten(lines[i]));
            }
            try {
                servers.add(new ActualServer(f[name], dash(f[addr]), dash(f[fqdn]), Integer.parseInt(f[port]),
                        Integer.parseInt(f[weight]), state(Integer.parseInt(f[admin]))));
            } catch (NumberFormatException e) {
                throw new IllegalStateException("unexpected row in show servers state: " + shorten(lines[i]), e);
            }
        }
        return Optional.of(servers);
    }

    /** The admin state the driver manages; maintenance inherited from a tracked server or DNS is not its own. */
    static ServerState state(int adminBits) {
        if ((adminBits & (FORCED_MAINT | CONFIG_MAINT)) != 0) {
            return ServerState.MAINT;
        }
        return (adminBits & FORCED_DRAIN) != 0 ? ServerState.DRAIN : ServerState.READY;
    }

    private static int column(List<String> columns, String name) {
        int i = columns.indexOf(name);
        if (i < 0) {
            throw new IllegalStateException("show servers state has no column " + name + ": " + columns);
        }
        return i;
    }

    private static String dash(String field) {
        return "-".equals(field) ? null : field;
    }

    private static String shorten(String s) {
        return s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }
}
