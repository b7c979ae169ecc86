package io.healthmesh.dnsfollow.plan;

import org.xbill.DNS.Address;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * A member's address as a DNS record can hold it: an IPv4 or IPv6 literal. A host name is not one (the dns role
 * does not resolve it: the answer would depend on another resolver at one moment and go stale without an event),
 * nor is an IPv6 literal with a zone id (meaningless to another host). Parsing never touches the network.
 */
final class AddressLiteral {

    private AddressLiteral() {
    }

    static Optional<InetAddress> parse(String address) {
        String text = address.trim();
        if (text.startsWith("[") && text.endsWith("]")) {
            text = text.substring(1, text.length() - 1);
        }
        byte[] bytes = Address.toByteArray(text, Address.IPv4);
        if (bytes == null && text.indexOf('%') < 0) {
            bytes = Address.toByteArray(text, Address.IPv6);
        }
        if (bytes == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByAddress(bytes));
        } catch (UnknownHostException e) {
            return Optional.empty(); // only for a wrong length, which toByteArray never returns
        }
    }
}
