package io.healthmesh.core.target;

/** The record types a DNS check may ask for. */
public enum DnsRecordType {
    A, AAAA, CNAME, MX, TXT, SRV, SOA
}
