/**
 * The DNS check ({@code protocol: DNS}): one query to the target as a name server, over UDP and again over TCP when
 * the answer comes back truncated, on Netty's DNS codec in the probe's own event loop. {@code DnsProber} does the
 * I/O, {@code DnsAnswerText} turns records into the presentation text users write in {@code expectedAnswers}, and
 * {@code DnsAnswerJudge} gives the one verdict. Name resolution of other probes' targets is
 * {@code io.healthmesh.probe.resolve}, apart from this.
 */
package io.healthmesh.probe.dns;
