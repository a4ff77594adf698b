package io.dpone.testing.mssql.tds;

/** One client message: its packet type ({@link TdsPackets}) and the payload of all its packets up to EOM. */
record TdsMessage(int type, byte[] payload) {
}
