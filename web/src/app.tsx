import { useEffect, useRef } from 'preact/hooks';
import { interceptLinks, useLocation } from './router.js';
import { SearchPage } from './pages/search-page.js';
import { CoursePage } from './pages/course-page.js';
import { TransferPage } from './pages/transfer-page.js';
import { TimetablePage } from './pages/timetable-page.js';
import { TutorPage } from './pages/tutor-page.js';
import { SettingsPage } from './pages/settings-page.js';
import { NotFoundPage } from './pages/not-found-page.js';
import { useSyncedTheme } from './theme.js';

const NAV = [
  ['/', 'Search'],
  ['/transfer', 'Transfer planner'],
  ['/timetable', 'Timetable'],
  ['/tutor', 'Tutor'],
  ['/settings', 'Settings'],
] as const;

function page(url: URL) {
  const course = /^\/courses\/([^/]+)\/([^/]+)\/?$/.exec(url.pathname);
  if (course) return <CoursePage institution={decodeURIComponent(course[1]!)} code={decodeURIComponent(course[2]!)} />;
  switch (url.pathname.replace(/\/+$/, '') || '/') {
    case '/':
      return <SearchPage params={url.searchParams} />;
    case '/transfer':
      return <TransferPage params={url.searchParams} />;
    case '/timetable':
      return <TimetablePage params={url.searchParams} />;
    case '/tutor':
      return <TutorPage sessionId={url.searchParams.get('session')} />;
    case '/settings':
      return <SettingsPage />;
    default:
      return <NotFoundPage path={url.pathname} />;
  }
}

export function App() {
  const url = useLocation();
  useSyncedTheme();
  useEffect(() => {
    document.addEventListener('click', interceptLinks);
    return () => document.removeEventListener('click', interceptLinks);
  }, []);
  // A new page moves focus to its main region, so keyboard and screen-reader users start at the content.
  const firstPage = useRef(true);
  useEffect(() => {
    if (firstPage.current) firstPage.current = false;
    else document.getElementById('main')?.focus({ preventScroll: true });
  }, [url.pathname]);
  const current = (href: string) => (href === '/' ? url.pathname === '/' || url.pathname.startsWith('/courses/') : url.pathname.startsWith(href));
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="/">
          Tutor Nexus
        </a>
        <nav aria-label="Main">
          <ul>
            {NAV.map(([href, label]) => (
              <li key={href}>
                <a href={href} aria-current={current(href) ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        {page(url)}
      </main>
    </>
  );
}
