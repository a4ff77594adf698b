package io.dpone.clickhouse.chdb;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The GOT slots through which an x86_64 ELF shared object calls the functions it imports, and the values of its
 * exported symbols, read from the file's section headers ({@code .dynsym}, its string table and the
 * {@code SHT_RELA} sections).
 *
 * <p>Hand-written because no maintained Java library reads ELF relocations, and the need is narrow: only
 * {@code R_X86_64_JUMP_SLOT} and {@code R_X86_64_GLOB_DAT} entries are kept (the call slots of lazy and eager
 * binding); the ~1.3 million relative relocations of {@code libchdb.so} are skipped. Reading it takes about 50 ms.
 */
final class ElfImports {
    private static final int SHT_RELA = 4;
    private static final int SHT_DYNSYM = 11;
    private static final int EM_X86_64 = 62;
    private static final int R_X86_64_GLOB_DAT = 6;
    private static final int R_X86_64_JUMP_SLOT = 7;
    private static final int SYM_BYTES = 24;
    private static final int RELA_BYTES = 24;

    private static final int PT_LOAD = 1;

    private final Map<String, List<Long>> slots;
    private final Map<String, Long> symbols;
    private final long imageSize;

    private ElfImports(Map<String, List<Long>> slots, Map<String, Long> symbols, long imageSize) {
        this.slots = slots;
        this.symbols = symbols;
        this.imageSize = imageSize;
    }

    /** Reads {@code file}; a file that is not a little-endian ELF64 object for x86_64 is refused. */
    static ElfImports read(Path file) {
        try (FileChannel channel = FileChannel.open(file)) {
            ByteBuffer header = region(channel, 0, 64);
            if (header.getInt(0) != 0x464c457f || header.get(4) != 2 || header.get(5) != 1
                    || header.getShort(18) != EM_X86_64) {
                throw new ChdbException("the embedded ClickHouse library is not an x86_64 ELF64 shared object");
            }
            long imageSize = 0;
            int phentsize = Short.toUnsignedInt(header.getShort(0x36));
            int phnum = Short.toUnsignedInt(header.getShort(0x38));
            ByteBuffer programs = region(channel, header.getLong(0x20), (long) phentsize * phnum);
            for (int i = 0; i < phnum; i++) {
                int at = i * phentsize;
                if (programs.getInt(at) == PT_LOAD) {
                    imageSize = Math.max(imageSize, programs.getLong(at + 0x10) + programs.getLong(at + 0x28));
                }
            }
            long shoff = header.getLong(0x28);
            int shentsize = Short.toUnsignedInt(header.getShort(0x3A));
            int shnum = Short.toUnsignedInt(header.getShort(0x3C));
            ByteBuffer sections = region(channel, shoff, (long) shentsize * shnum);
            ByteBuffer dynsym = null;
            ByteBuffer dynstr = null;
            List<ByteBuffer> relas = new ArrayList<>();
            for (int i = 0; i < shnum; i++) {
                int at = i * shentsize;
                int type = sections.getInt(at + 4);
                if (type == SHT_DYNSYM) {
                    dynsym = region(channel, sections.getLong(at + 0x18), sections.getLong(at + 0x20));
                    int strings = sections.getInt(at + 0x28) * shentsize;
                    dynstr = region(channel, sections.getLong(strings + 0x18), sections.getLong(strings + 0x20));
                } else if (type == SHT_RELA) {
                    relas.add(region(channel, sections.getLong(at + 0x18), sections.getLong(at + 0x20)));
                }
            }
            if (dynsym == null) {
                throw new ChdbException("the embedded ClickHouse library has no dynamic symbol table");
            }
            return new ElfImports(callSlots(relas, dynsym, dynstr), exported(dynsym, dynstr), imageSize);
        } catch (IOException e) {
            throw new ChdbException("the embedded ClickHouse library cannot be read: " + e.getClass().getSimpleName());
        }
    }

    /** The link-time addresses of the GOT slots for calls to {@code function}; empty when it is not imported. */
    List<Long> slotsOf(String function) {
        return slots.getOrDefault(function, List.of());
    }

    /** The size of the loaded image: the end of its highest {@code PT_LOAD} segment. */
    long imageSize() {
        return imageSize;
    }

    /** The link-time address of the exported symbol {@code name}. */
    long symbolValue(String name) {
        Long value = symbols.get(name);
        if (value == null) {
            throw new ChdbException("the embedded ClickHouse library does not export " + name);
        }
        return value;
    }

    private static Map<String, List<Long>> callSlots(List<ByteBuffer> relas, ByteBuffer dynsym, ByteBuffer dynstr) {
        Map<String, List<Long>> out = new HashMap<>();
        for (ByteBuffer rela : relas) {
            for (int at = 0; at + RELA_BYTES <= rela.limit(); at += RELA_BYTES) {
                long info = rela.getLong(at + 8);
                int type = (int) info;
                if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT) {
                    continue;
                }
                int symbol = (int) (info >>> 32);
                String name = string(dynstr, dynsym.getInt(symbol * SYM_BYTES));
                out.computeIfAbsent(name, k -> new ArrayList<>()).add(rela.getLong(at));
            }
        }
        return out;
    }

    private static Map<String, Long> exported(ByteBuffer dynsym, ByteBuffer dynstr) {
        Map<String, Long> out = new HashMap<>();
        for (int at = 0; at + SYM_BYTES <= dynsym.limit(); at += SYM_BYTES) {
            int sectionIndex = Short.toUnsignedInt(dynsym.getShort(at + 6));
            if (sectionIndex != 0) { // 0 is SHN_UNDEF: an import, not a definition
                out.put(string(dynstr, dynsym.getInt(at)), dynsym.getLong(at + 8));
            }
        }
        return out;
    }

    private static String string(ByteBuffer table, int offset) {
        int end = offset;
        while (table.get(end) != 0) {
            end++;
        }
        byte[] bytes = new byte[end - offset];
        table.get(offset, bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    private static ByteBuffer region(FileChannel channel, long offset, long length) throws IOException {
        if (length < 0 || length > Integer.MAX_VALUE || offset < 0 || offset + length > channel.size()) {
            throw new ChdbException("the embedded ClickHouse library has a malformed ELF header");
        }
        return channel.map(FileChannel.MapMode.READ_ONLY, offset, length).order(ByteOrder.LITTLE_ENDIAN);
    }
}
