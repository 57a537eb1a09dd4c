#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>

#include <optional>

namespace Sandpiper {

// A table the sandbox showed: a DataFrame or Series (the first rows, with the whole frame's shape),
// or a table found in HTML. A value type; it travels with its execution and is stored with it.
struct DataTable {
    QString tableId; // the kernel's name for the whole frame, for saving it as CSV or Excel
    QString kind;    // "DataFrame", "Series" or "HTML"
    QStringList columns;
    QStringList dtypes;   // pandas' names ("int64", "object"); empty for HTML tables
    int indexColumns = 0; // leading columns that are the frame's index levels
    // One array per row, as long as columns: numbers, booleans, text, or null for a missing value.
    QList<QJsonArray> rows;
    qint64 totalRows = 0;
    qint64 totalColumns = 0;
    bool exportable = false; // the kernel holds the frame: it can write all of it

    // Everything, for the store and the JSON export.
    QJsonObject toJson() const;
    // What `sandpiper-cli --json` prints: columns, rows, total_rows, total_columns.
    QJsonObject toCliJson() const;
    // A table from the store, an imported file or the sandbox: checked, sizes capped, cells
    // normalised (a nested value becomes its JSON text); nothing for what is not a table.
    static std::optional<DataTable> fromJson(const QJsonObject &object);

    // A cell as text: how the table shows it and how Copy writes it. Missing values read as
    // pandas shows them for the column's type (NaN, NaT, None).
    QString cellText(int row, int column) const;
    // "1 234 567 rows × 3 columns" and the first few rows, for the model when it has no other text.
    QString summary(int rowsShown = 5) const;

    // Checked when a table comes in: more would only slow the chat down.
    static constexpr int maxRows = 1000;
    static constexpr int maxColumns = 500;
    static constexpr int maxCellChars = 2000;

    friend bool operator==(const DataTable &, const DataTable &) = default;
};

} // namespace Sandpiper
