package io.dpone.publication.artifact;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dpone.format.parquet.ParquetColumn;
import io.dpone.source.SourceColumn;
import io.dpone.source.types.BoolType;
import io.dpone.source.types.ColumnType;
import io.dpone.source.types.DateType;
import io.dpone.source.types.DecimalType;
import io.dpone.source.types.FloatType;
import io.dpone.source.types.IntegerType;
import io.dpone.source.types.StringType;
import io.dpone.source.types.TimestampType;
import io.dpone.source.types.UuidType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The member-side read of an artifact agrees with the writer's {@link ParquetColumn} for every type family. */
class ParquetArtifactColumnsTest {
    @Test
    void fileTypesMatchTheWriter() {
        List<ColumnType> types = new ArrayList<>(List.of(new IntegerType(32, false), new IntegerType(64, false),
            new BoolType(), new DecimalType(18, 4), new DecimalType(38, 10), new FloatType(64), new DateType(),
            new UuidType()));
        for (int p = 0; p <= 9; p++) {
            types.add(new TimestampType(p, false));
        }
        for (ColumnType t : types) {
            for (boolean nullable : new boolean[] {false, true}) {
                SourceColumn c = new SourceColumn("c", "x", nullable, t);
                assertEquals(ParquetColumn.of(c).structureType(), ParquetArtifactColumns.fileType(c.clickHouseType()),
                    c.clickHouseType());
            }
        }
    }
}
