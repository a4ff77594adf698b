package io.dpone.testing.mssql.tds;

import io.dpone.testing.mssql.engine.Param;
import java.util.ArrayList;
import java.util.List;

/** Parses SQL batch and RPC request messages (MS-TDS 2.2.6.7, 2.2.6.6) after their ALL_HEADERS. */
final class Requests {
    static final int SP_EXECUTESQL = 10;
    static final int SP_PREPARE = 11;
    static final int SP_EXECUTE = 12;
    static final int SP_PREPEXEC = 13;
    static final int SP_UNPREPARE = 15;

    private Requests() {
    }

    /** One RPC of a request: a procedure id (name null) or a name (id 0), and its parameters in order. */
    record Rpc(int procId, String name, List<Param> params) {
        Param param(int i) {
            if (i >= params.size()) {
                throw new TdsProtocolException("RPC parameter " + i + " missing");
            }
            return params.get(i);
        }
    }

    static String batchText(byte[] payload) {
        PayloadReader r = new PayloadReader(payload);
        skipAllHeaders(r);
        return r.ucs2(r.remaining() / 2);
    }

    static List<Rpc> rpcs(byte[] payload) {
        PayloadReader r = new PayloadReader(payload);
        skipAllHeaders(r);
        List<Rpc> calls = new ArrayList<>();
        while (r.hasMore()) {
            int nameLength = r.u16();
            int id = 0;
            String name = null;
            if (nameLength == 0xFFFF) {
                id = r.u16();
            } else {
                name = r.ucs2(nameLength);
            }
            r.u16(); // option flags: WithRecomp, NoMetaData, ReuseMetaData
            List<Param> params = new ArrayList<>();
            while (r.hasMore()) {
                int at = r.position();
                int next = r.u8();
                if (next == 0xFF || next == 0x80) { // the batch separator before the next RPC
                    break;
                }
                r.position(at);
                String pname = r.bVarchar();
                int status = r.u8();
                ParamDecoder.WireType type = ParamDecoder.typeInfo(r);
                Object value = ParamDecoder.value(r, type);
                params.add(new Param(pname, type.type(), value, (status & 0x01) != 0));
            }
            calls.add(new Rpc(id, name, params));
        }
        return calls;
    }

    /** ALL_HEADERS (transaction descriptor, outstanding requests, trace activity): their total length first. */
    private static void skipAllHeaders(PayloadReader r) {
        int at = r.position();
        long total = r.u32();
        if (total < 4 || total > r.remaining() + 4) {
            throw new TdsProtocolException("bad ALL_HEADERS length");
        }
        r.position(at + (int) total);
    }
}
