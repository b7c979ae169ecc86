package io.healthmesh.probe.dns;

import java.util.List;

/**
 * What a name server answered, as the judge and the one-shot {@code healthmesh probe} see it.
 *
 * @param rcode the response code by name ({@code NOERROR}, {@code NXDOMAIN}, ...)
 * @param answers the answer records of the asked type in presentation text (at most {@link #MAX_ANSWERS})
 * @param overTcp true when the UDP answer was truncated and this one came over TCP
 */
public record DnsReply(String rcode, List<String> answers, boolean overTcp) {

    /** Answers kept from one reply; a larger answer set is cut here, before anything compares or prints it. */
    public static final int MAX_ANSWERS = 64;

    public DnsReply {
        answers = List.copyOf(answers.size() > MAX_ANSWERS ? answers.subList(0, MAX_ANSWERS) : answers);
    }
}
