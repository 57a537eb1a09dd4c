#include "translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace Sandpiper {

bool Translations::install(const QLocale &locale)
{
    // Live as long as the application; installing them again replaces them.
    static QTranslator plurals;
    static QTranslator own;
    static QTranslator qt;
    QCoreApplication::removeTranslator(&plurals);
    QCoreApplication::removeTranslator(&own);
    QCoreApplication::removeTranslator(&qt);
    // The English plural forms ("1 cell", "2 cells") under every language, for the texts that
    // one has no translation of; installed first, so that a translation is asked before it.
    if (plurals.load(QStringLiteral(":/i18n/sandpiper_en.qm")))
        QCoreApplication::installTranslator(&plurals);
    const bool found = locale.language() != QLocale::English &&
                       own.load(locale, QStringLiteral("sandpiper"), QStringLiteral("_"), QStringLiteral(":/i18n"));
    if (found)
        QCoreApplication::installTranslator(&own);
    if (qt.load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(&qt);
    return found;
}

} // namespace Sandpiper
