package io.healthmesh.probe.egress;

import org.junit.jupiter.api.Test;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Cidr#contains} compares in place; here it is held to the definition (the first prefix bits are equal) on
 * random blocks and addresses of both families, every prefix length, and addresses one bit off the block.
 */
class CidrTest {

    @Test
    void containsAgreesWithTheDefinitionOnEveryPrefixLength() throws Exception {
        Random random = new Random(42);
        for (int length : new int[] {4, 16}) {
            for (int prefix = 0; prefix <= length * 8; prefix++) {
                for (int round = 0; round < 20; round++) {
                    byte[] network = new byte[length];
                    random.nextBytes(network);
                    Cidr block = Cidr.parse(InetAddress.getByAddress(network).getHostAddress() + "/" + prefix);
                    byte[] candidate = network.clone();
                    if (random.nextBoolean()) {
                        int bit = random.nextInt(length * 8);
                        candidate[bit / 8] ^= (byte) (0x80 >>> (bit % 8));
                    } else {
                        random.nextBytes(candidate);
                    }
                    InetAddress address = InetAddress.getByAddress(candidate);
                    assertThat(block.contains(address))
                            .as("%s in %s", address.getHostAddress(), block)
                            .isEqualTo(samePrefix(network, candidate, prefix));
                }
            }
        }
    }

    @Test
    void anIpv4MappedIpv6AddressIsCheckedAsItsIpv4Address() throws Exception {
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        mapped[12] = 10;
        mapped[15] = 7;
        Inet6Address address = Inet6Address.getByAddress(null, mapped, -1);
        assertThat(Cidr.parse("10.0.0.0/8").contains(address)).isTrue();
        assertThat(Cidr.parse("11.0.0.0/8").contains(address)).isFalse();
    }

    private static boolean samePrefix(byte[] a, byte[] b, int prefix) {
        for (int bit = 0; bit < prefix; bit++) {
            int mask = 0x80 >>> (bit % 8);
            if ((a[bit / 8] & mask) != (b[bit / 8] & mask)) {
                return false;
            }
        }
        return true;
    }
}
