package io.dpone.quality;

/**
 * The source side of the quality gates, fed by the chunk encoder one row at a time: the encoder owns the rows and
 * their RowBinary encoding, the evidence owns what the gates compare. One instance per run, used by one thread.
 */
public interface SourceEvidence {

    /**
     * One source row as read ({@code values}, {@code null} for SQL NULL) and as encoded in RowBinary
     * ({@code encoded}, value {@code i} spanning {@code offsets[i]..offsets[i + 1]}).
     */
    void row(Object[] values, byte[] encoded, int[] offsets);

    /** The statistics over every row seen; {@code encodedBytes} is the size of the chunks the encoder wrote. */
    SourceStats finish(long encodedBytes);
}
