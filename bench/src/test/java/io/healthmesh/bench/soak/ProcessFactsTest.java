package io.healthmesh.bench.soak;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProcessFactsTest {

    @Test
    void readsThisJvmFromProcWithRocksDbFilesLeftOutOfTheDescriptors() {
        RoleFacts self = ProcessFacts.read(ProcessHandle.current().pid());

        assertThat(self.rssMib()).isPositive();
        assertThat(self.threads()).isPositive();
        assertThat(self.fds()).isPositive();
        assertThat(self.heapMib()).isPositive();
        assertThat(ProcessFacts.isStoreFile("/var/lib/healthmesh/app/1_3/rocksdb/target-health/000012.sst")).isTrue();
        assertThat(ProcessFacts.isStoreFile("socket:[123456]")).isFalse();
        assertThat(ProcessFacts.isStoreFile("/var/lib/healthmesh/app/1_3/.checkpoint")).isFalse();
    }

    @Test
    void aProcessThatIsGoneReadsAsUnknown() {
        RoleFacts gone = ProcessFacts.read(Long.MAX_VALUE);

        assertThat(gone).isEqualTo(RoleFacts.unknown(Long.MAX_VALUE));
    }
}
