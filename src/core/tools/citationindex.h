#pragma once

#include <QHash>
#include <QString>

#include <optional>

namespace Sandpiper {

// The numbers by which the model cites web sources, shared by search_web and fetch_url in
// one conversation: numbers keep counting across searches, and a page keeps its number
// however often it comes up, so [3] means the same page throughout an answer.
class CitationIndex
{
public:
    int numberFor(const QString &url);
    std::optional<int> find(const QString &url) const;

private:
    static QString key(const QString &url);

    QHash<QString, int> m_numbers;
};

} // namespace Sandpiper
