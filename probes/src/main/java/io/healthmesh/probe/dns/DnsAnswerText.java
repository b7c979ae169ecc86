package io.healthmesh.probe.dns;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.dns.DnsRawRecord;
import io.netty.handler.codec.dns.DnsRecordType;
import io.netty.util.NetUtil;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A record's data in the presentation text of docs/PROBES.md, which {@code dns.expectedAnswers} and
 * {@code dns.answerPatterns} are written against: {@code 192.0.2.1}, {@code 2001:db8::1} (RFC 5952),
 * {@code alias.example.com.}, {@code 10 mail.example.com.}, {@code 10 5 5060 sip.example.com.}, the SOA's seven
 * fields, and a TXT record's strings joined without quotes. Names are lower case with a final dot. Compressed names
 * are followed through the whole message (the record's content shares the message's index space) with a bounded
 * number of jumps; text longer than {@link #MAX_TEXT} characters is cut.
 */
final class DnsAnswerText {

    /** Longest text kept for one record. */
    static final int MAX_TEXT = 1024;
    private static final int MAX_JUMPS = 32;

    private DnsAnswerText() {
    }

    /** The record's text, or {@code null} when its data does not parse as its type. */
    static String of(DnsRawRecord record) {
        ByteBuf data = record.content();
        int start = data.readerIndex();
        int end = data.writerIndex();
        try {
            String text = text(record.type(), data, start, end);
            return text == null ? null : cut(text);
        } catch (IndexOutOfBoundsException | IllegalArgumentException malformed) {
            return null;
        }
    }

    private static String text(DnsRecordType type, ByteBuf data, int start, int end) {
        int length = end - start;
        if (type == DnsRecordType.A || type == DnsRecordType.AAAA) {
            if (length != (type == DnsRecordType.A ? 4 : 16)) {
                return null;
            }
            byte[] bytes = new byte[length];
            data.getBytes(start, bytes);
            try {
                return NetUtil.toAddressString(InetAddress.getByAddress(bytes));
            } catch (UnknownHostException impossible) {
                return null;
            }
        }
        if (type == DnsRecordType.CNAME) {
            return name(data, start, end).text();
        }
        if (type == DnsRecordType.MX) {
            return data.getUnsignedShort(start) + " " + name(data, start + 2, end).text();
        }
        if (type == DnsRecordType.SRV) {
            return data.getUnsignedShort(start) + " " + data.getUnsignedShort(start + 2) + " "
                    + data.getUnsignedShort(start + 4) + " " + name(data, start + 6, end).text();
        }
        if (type == DnsRecordType.SOA) {
            Name mname = name(data, start, end);
            Name rname = name(data, mname.next(), end);
            StringBuilder out = new StringBuilder(mname.text()).append(' ').append(rname.text());
            for (int i = 0; i < 5; i++) {
                out.append(' ').append(data.getUnsignedInt(rname.next() + 4 * i));
            }
            return out.toString();
        }
        if (type == DnsRecordType.TXT) {
            StringBuilder out = new StringBuilder();
            int i = start;
            while (i < end && out.length() <= MAX_TEXT) {
                int n = data.getUnsignedByte(i);
                if (i + 1 + n > end) {
                    return null;
                }
                out.append(data.toString(i + 1, n, StandardCharsets.UTF_8));
                i += 1 + n;
            }
            return out.toString();
        }
        return null;
    }

    /** A name and the index after it in the record (after its pointer, when it ends in one). */
    private record Name(String text, int next) {
    }

    private static Name name(ByteBuf message, int start, int end) {
        StringBuilder out = new StringBuilder();
        int i = start;
        int next = -1;
        int jumps = 0;
        while (true) {
            int len = message.getUnsignedByte(i);
            if ((len & 0xc0) == 0xc0) {
                if (++jumps > MAX_JUMPS) {
                    throw new IllegalArgumentException("compression loop");
                }
                if (next < 0) {
                    next = i + 2;
                }
                i = ((len & 0x3f) << 8) | message.getUnsignedByte(i + 1);
                continue;
            }
            if (len == 0) {
                if (next < 0) {
                    next = i + 1;
                }
                break;
            }
            if (len > 63 || out.length() > 255) {
                throw new IllegalArgumentException("bad label");
            }
            out.append(message.toString(i + 1, len, StandardCharsets.US_ASCII)).append('.');
            i += 1 + len;
        }
        if (next > end) {
            throw new IllegalArgumentException("name past the record");
        }
        return new Name(out.length() == 0 ? "." : out.toString().toLowerCase(Locale.ROOT), next);
    }

    private static String cut(String text) {
        return text.length() > MAX_TEXT ? text.substring(0, MAX_TEXT) : text;
    }
}
