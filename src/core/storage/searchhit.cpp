#include "storage/searchhit.h"

namespace Sandpiper {

QString SearchHit::snippetHtml() const
{
    QString html = snippet.toHtmlEscaped();
    html.replace(MatchStart, QLatin1String("<b>"));
    html.replace(MatchEnd, QLatin1String("</b>"));
    return html;
}

} // namespace Sandpiper
