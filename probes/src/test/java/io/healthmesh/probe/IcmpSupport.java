package io.healthmesh.probe;

import io.healthmesh.probe.icmp.EchoResult;
import io.healthmesh.probe.icmp.IcmpPinger;
import io.healthmesh.probe.icmp.IcmpSocketKind;

import java.net.InetAddress;
import java.util.concurrent.TimeUnit;

/** Whether this machine lets the tests ping loopback, and if not, why (for JUnit assumptions). */
public final class IcmpSupport {

    private IcmpSupport() {
    }

    /** Null when an echo of {@code kind} to {@code address} is answered; else the reason it is not. */
    public static String whyNot(IcmpSocketKind kind, String address) throws Exception {
        try (IcmpPinger pinger = new IcmpPinger(kind, 4)) {
            EchoResult result = pinger.echo(InetAddress.getByName(address), TimeUnit.SECONDS.toNanos(2))
                    .get(10, TimeUnit.SECONDS);
            return result.status() == EchoResult.Status.REPLY ? null
                    : "ICMP " + kind + " echo to " + address + " not possible here: " + result.detail();
        }
    }
}
