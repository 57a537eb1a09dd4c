#pragma once

#include <QString>

#include <chrono>

namespace Sandpiper {

// Settings of the web tools (search_web and fetch_url). Every endpoint can be pointed
// elsewhere, which is how tests talk to local servers.
struct WebConfig {
    // duckduckgo (needs no key), searxng (self-hosted), brave or tavily (API keys).
    QString searchBackend = QStringLiteral("duckduckgo");
    QString duckDuckGoUrl = QStringLiteral("https://html.duckduckgo.com/html/");
    QString searxngUrl; // the instance, e.g. http://localhost:8888; there is no public default
    QString braveUrl = QStringLiteral("https://api.search.brave.com/res/v1/web/search");
    QString tavilyUrl = QStringLiteral("https://api.tavily.com/search");
    int maxResults = 5;
    std::chrono::milliseconds searchTimeout{std::chrono::seconds(20)};

    // fetch_url reads public pages only, unless the user allows their own networks too.
    bool allowLocal = false;
    qint64 maxBytes = 2 * 1024 * 1024;
    int maxChars = 20000; // of page text handed to the model
    int maxRedirects = 5;
    std::chrono::milliseconds connectTimeout{std::chrono::seconds(10)}; // DNS, connect and the response head
    std::chrono::milliseconds fetchTimeout{std::chrono::seconds(30)};   // the whole fetch, redirects included
};

} // namespace Sandpiper
