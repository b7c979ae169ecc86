package io.healthmesh.dnsfollow.update;

import io.healthmesh.dnsfollow.mapping.NameMapping;
import io.healthmesh.dnsfollow.mapping.RecordType;
import io.healthmesh.dnsfollow.mapping.TsigKey;
import io.healthmesh.dnsfollow.plan.RecordChange;
import io.healthmesh.dnsfollow.plan.RecordSet;
import io.healthmesh.dnsfollow.plan.ZoneRecords;
import io.healthmesh.dnsfollow.update.DnsUpdateException.Reason;
import org.xbill.DNS.AAAARecord;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Flags;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.TSIG;
import org.xbill.DNS.TSIGRecord;
import org.xbill.DNS.TextParseException;
import org.xbill.DNS.Type;
import org.xbill.DNS.Update;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * A zone's primary server reached with dnsjava: a name's records are read by a plain query at the server itself
 * (over TCP, so a large RRset is never truncated; signed with the key, so a server that restricts queries answers),
 * and changes are sent as one RFC 2136 update signed with TSIG. An update carries no prerequisite: adding a record
 * that is there and deleting one that is not both change nothing, so a repeated or replayed update is harmless, and
 * the server applies the message's changes together, so a name is never seen half-changed.
 * <p>
 * Answers are classified into {@link Reason}s: NOTAUTH with a TSIG error is BADKEY / BADSIG / BADTIME; NOTAUTH
 * without one, NOTZONE, a REFUSED query, or a query answer without the AA bit is NOT_AUTHORITATIVE.
 */
public final class Rfc2136Server implements ZoneServer {

    private final Duration timeout;

    /** @param timeout how long one query or update may take */
    public Rfc2136Server(Duration timeout) {
        this.timeout = requireNonNull(timeout, "timeout");
    }

    @Override
    public ZoneRecords read(NameMapping mapping) throws DnsUpdateException {
        List<InetAddress> addresses = new ArrayList<>();
        Map<RecordType, Long> ttls = new EnumMap<>(RecordType.class);
        for (RecordType type : RecordType.values()) {
            if (!mapping.types().contains(type)) {
                continue;
            }
            Name name = name(mapping.name());
            Message answer = send(mapping, Message.newQuery(Record.newRecord(name, dnsType(type), DClass.IN)),
                    "query " + mapping.name() + " " + type);
            int rcode = answer.getRcode();
            if (rcode == Rcode.REFUSED && (answer.getTSIG() == null || answer.getTSIG().getError() == Rcode.NOERROR)) {
                // a primary without recursion refuses a query for a zone it does not serve
                throw new DnsUpdateException(Reason.NOT_AUTHORITATIVE, "query " + mapping.name() + " " + type + " at "
                        + mapping.server() + ": REFUSED (is it the primary of zone " + mapping.zone()
                        + "? does its allow-query admit this host?)");
            }
            if (rcode != Rcode.NOERROR && rcode != Rcode.NXDOMAIN) {
                throw failure(mapping, answer, "query " + mapping.name() + " " + type);
            }
            if (!answer.getHeader().getFlag(Flags.AA)) {
                throw new DnsUpdateException(Reason.NOT_AUTHORITATIVE, mapping.server() + " is not authoritative for "
                        + mapping.name() + " (its answer has no AA flag; check the record's zone and server)");
            }
            for (Record r : answer.getSection(Section.ANSWER)) {
                if (r.getType() == dnsType(type) && r.getName().equals(name)) {
                    addresses.add(r instanceof ARecord a ? a.getAddress() : ((AAAARecord) r).getAddress());
                    ttls.merge(type, r.getTTL(), Math::min);
                }
            }
        }
        return new ZoneRecords(RecordSet.of(addresses), ttls);
    }

    @Override
    public void update(NameMapping zone, List<RecordChange> changes) throws DnsUpdateException {
        if (changes.isEmpty()) {
            return;
        }
        Update update = new Update(name(zone.zone()));
        for (RecordChange c : changes) {
            Name name = name(c.name());
            Record record = c.type() == RecordType.A
                    ? new ARecord(name, DClass.IN, c.ttl(), c.address())
                    : new AAAARecord(name, DClass.IN, c.ttl(), c.address());
            if (c.op() == RecordChange.Op.ADD) {
                update.add(record);
            } else {
                update.delete(record);
            }
        }
        String what = "update of zone " + zone.zone() + " (" + changes.size() + " changes)";
        Message answer = send(zone, update, what);
        if (answer.getRcode() != Rcode.NOERROR) {
            throw failure(zone, answer, what);
        }
    }

    private Message send(NameMapping mapping, Message message, String what) throws DnsUpdateException {
        InetSocketAddress server = new InetSocketAddress(mapping.server().host(), mapping.server().port());
        if (server.isUnresolved()) {
            throw new DnsUpdateException(Reason.UNREACHABLE, what + ": server host " + mapping.server().host()
                    + " does not resolve");
        }
        SimpleResolver resolver = new SimpleResolver(server);
        resolver.setTCP(true);
        resolver.setTimeout(timeout);
        resolver.setTSIGKey(tsig(mapping.key()));
        Message answer;
        try {
            answer = resolver.send(message);
        } catch (IOException e) {
            throw new DnsUpdateException(Reason.UNREACHABLE, what + " at " + mapping.server() + ": no answer ("
                    + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")", e);
        }
        TSIGRecord signature = answer.getTSIG();
        boolean tsigError = signature != null && signature.getError() != Rcode.NOERROR;
        int rcode = answer.getRcode();
        if (!tsigError && (rcode == Rcode.NOERROR || rcode == Rcode.NXDOMAIN) && !answer.isVerified()) {
            throw new DnsUpdateException(Reason.UNSIGNED_ANSWER, what + " at " + mapping.server()
                    + ": the answer is not signed with key " + mapping.key().name());
        }
        return answer;
    }

    private static DnsUpdateException failure(NameMapping mapping, Message answer, String what) {
        int rcode = answer.getRcode();
        TSIGRecord signature = answer.getTSIG();
        int tsigError = signature == null ? Rcode.NOERROR : signature.getError();
        String at = what + " at " + mapping.server() + ": ";
        if (tsigError == Rcode.BADKEY) {
            return new DnsUpdateException(Reason.BADKEY, at + "the server does not know key " + mapping.key().name()
                    + " (BADKEY)");
        }
        if (tsigError == Rcode.BADSIG) {
            return new DnsUpdateException(Reason.BADSIG, at + "the signature with key " + mapping.key().name()
                    + " does not verify (BADSIG: a wrong secret or algorithm)");
        }
        if (tsigError == Rcode.BADTIME) {
            return new DnsUpdateException(Reason.BADTIME, at + "the clocks differ too much (BADTIME)");
        }
        if (rcode == Rcode.NOTAUTH || rcode == Rcode.NOTZONE) {
            return new DnsUpdateException(Reason.NOT_AUTHORITATIVE, at + "not authoritative for zone " + mapping.zone()
                    + " (" + Rcode.string(rcode) + ")");
        }
        if (rcode == Rcode.REFUSED) {
            return new DnsUpdateException(Reason.REFUSED, at + "REFUSED (does the zone's allow-update or update-policy"
                    + " grant key " + mapping.key().name() + "?)");
        }
        if (rcode == Rcode.SERVFAIL) {
            return new DnsUpdateException(Reason.SERVFAIL, at + "SERVFAIL");
        }
        return new DnsUpdateException(Reason.OTHER, at + Rcode.string(rcode));
    }

    private static TSIG tsig(TsigKey key) {
        return new TSIG(TSIG.algorithmToName(key.algorithm()), name(key.name()), key.secret());
    }

    private static Name name(String absolute) {
        try {
            return Name.fromString(absolute);
        } catch (TextParseException e) {
            throw new IllegalArgumentException("not a domain name: " + absolute, e); // the mapping file checked it
        }
    }

    static int dnsType(RecordType type) {
        return type == RecordType.A ? Type.A : Type.AAAA;
    }
}
