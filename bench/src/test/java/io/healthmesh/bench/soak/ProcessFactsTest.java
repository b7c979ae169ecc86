package io.healthmesh.bench.soak;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ProcessFactsTest {

    @Test
    void readsThisJvmFromProcWithRocksDbFilesLeftOutOfTheDescriptors() {
        RoleFacts self = new ProcessFacts().read(ProcessHandle.current().pid());

        assertThat(self.rssMib()).isPositive();
        assertThat(self.threads()).isPositive();
        assertThat(self.openFds()).isPositive();
        assertThat(self.heldFds()).as("nothing to compare with at a pid's first reading").isEqualTo(-1);
        assertThat(self.heapMib()).isPositive();
        assertThat(ProcessFacts.isStoreFile("/var/lib/healthmesh/app/1_3/rocksdb/target-health/000012.sst")).isTrue();
        assertThat(ProcessFacts.isStoreFile("socket:[123456]")).isFalse();
        assertThat(ProcessFacts.isStoreFile("/var/lib/healthmesh/app/1_3/.checkpoint")).isFalse();
    }

    @Test
    void aDescriptorOpenAtTwoReadingsIsHeldAndOneOpenedBetweenThemIsNot() throws IOException {
        ProcessFacts facts = new ProcessFacts();
        long pid = ProcessHandle.current().pid();
        facts.read(pid);
        try (ServerSocket kept = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            RoleFacts withNewSocket = facts.read(pid);
            RoleFacts again = facts.read(pid);

            assertThat(withNewSocket.transientFds()).as("the socket opened since the first reading").isPositive();
            assertThat(withNewSocket.heldFds()).isPositive().isLessThan(withNewSocket.openFds());
            assertThat(again.heldFds()).as("the kept socket now counts as held")
                    .isGreaterThanOrEqualTo(withNewSocket.heldFds() + 1);
        }
    }

    @Test
    void heldCountsTheEntriesOfBothListingsAndANewPidStartsOver() {
        Set<String> before = Set.of("3=socket:[100]", "4=/app/lib/kafka-clients.jar", "5=socket:[101]");
        Set<String> now = Set.of("3=socket:[100]", "4=/app/lib/kafka-clients.jar", "5=socket:[102]",
                "6=socket:[103]");

        assertThat(ProcessFacts.heldCount(before, now)).as("fd 5 is a new socket on a reused number").isEqualTo(2);
        ProcessFacts facts = new ProcessFacts();
        long pid = ProcessHandle.current().pid();
        facts.read(pid);
        facts.read(Long.MAX_VALUE);
        assertThat(facts.read(pid).heldFds()).as("another pid was read between: a new lifetime").isEqualTo(-1);
    }

    @Test
    void aProcessThatIsGoneReadsAsUnknown() {
        RoleFacts gone = new ProcessFacts().read(Long.MAX_VALUE);

        assertThat(gone).isEqualTo(RoleFacts.unknown(Long.MAX_VALUE));
    }
}
