#pragma once

class QLocale;

namespace Sandpiper {

// The app's own strings and Qt's (standard buttons, file dialogs) in one language.
class Translations
{
public:
    // Replaces the translations installed before with those for LOCALE. False when Sandpiper
    // has none for it (Qt's may still be there).
    static bool install(const QLocale &locale);
};

} // namespace Sandpiper
