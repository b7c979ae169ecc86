package io.healthmesh.dnsfollow;

import io.healthmesh.testkit.LocalNamed;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.DClass;
import org.xbill.DNS.Message;
import org.xbill.DNS.Name;
import org.xbill.DNS.Rcode;
import org.xbill.DNS.Record;
import org.xbill.DNS.Section;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.Type;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;

/** What a resolver gets for a name's A records from the test's named (over UDP, as a client would ask). */
final class NameQuery {

    private final SimpleResolver resolver;

    NameQuery(LocalNamed named) {
        resolver = new SimpleResolver(new InetSocketAddress("127.0.0.1", named.port()));
        resolver.setTimeout(Duration.ofSeconds(2));
    }

    /** The addresses the name answers, as text; empty for NXDOMAIN or no A record. */
    Set<String> a(String name) {
        try {
            Message answer = resolver.send(Message.newQuery(Record.newRecord(Name.fromString(name), Type.A, DClass.IN)));
            Set<String> addresses = new TreeSet<>();
            if (answer.getRcode() != Rcode.NOERROR && answer.getRcode() != Rcode.NXDOMAIN) {
                throw new IllegalStateException(name + ": " + Rcode.string(answer.getRcode()));
            }
            for (Record r : answer.getSection(Section.ANSWER)) {
                if (r instanceof ARecord a) {
                    addresses.add(a.getAddress().getHostAddress());
                }
            }
            return addresses;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
