#include "tools/citationindex.h"

#include <QUrl>

namespace Sandpiper {

QString CitationIndex::key(const QString &url)
{
    return QUrl(url)
        .adjusted(QUrl::RemoveFragment | QUrl::StripTrailingSlash | QUrl::NormalizePathSegments)
        .toString(QUrl::FullyEncoded);
}

int CitationIndex::numberFor(const QString &url)
{
    const QString normalised = key(url);
    if (const auto found = m_numbers.constFind(normalised); found != m_numbers.constEnd())
        return *found;
    const int number = int(m_numbers.size()) + 1;
    m_numbers.insert(normalised, number);
    return number;
}

std::optional<int> CitationIndex::find(const QString &url) const
{
    if (const auto found = m_numbers.constFind(key(url)); found != m_numbers.constEnd())
        return *found;
    return std::nullopt;
}

} // namespace Sandpiper
