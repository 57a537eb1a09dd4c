#pragma once

#include <QList>
#include <QString>

namespace Sandpiper {

// A web page the model was given: a search result or a page it read. The model cites these
// by number; the GUI shows them as cards the user can open.
struct WebSource {
    int number = 0; // what the model cites it as: [number]; the same URL keeps its number
    QString title;
    QString url;
    QString snippet;
    QString date; // yyyy-MM-dd where the source gave a date, else what it said, else empty

    bool operator==(const WebSource &) const = default;
};

} // namespace Sandpiper
