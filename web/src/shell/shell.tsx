import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { onLinkClick } from '../router';
import { NAV } from './routes';

/**
 * The frame of every page: the brand, the main navigation (behind a menu button on a narrow
 * screen) and "Log out". A skip link leads keyboard users past the navigation.
 */
export function Shell({ path, onLogOut, children }: { path: string; onLogOut: () => void; children: ComponentChildren }) {
  const [menuOpen, setMenuOpen] = useState(false);
  // A navigation closes the menu.
  useEffect(() => setMenuOpen(false), [path]);
  return (
    <div class="shell" onClick={onLinkClick}>
      <a class="skip" href="#main">
        Skip to the page
      </a>
      <header class="top">
        <a class="brand" href="/buildings">
          Cartograph
        </a>
        <button type="button" class="btn plain menu-button" aria-expanded={menuOpen} aria-controls="main-nav" onClick={() => setMenuOpen(!menuOpen)}>
          Menu
        </button>
        <nav id="main-nav" aria-label="Main" class={menuOpen ? 'open' : ''}>
          {NAV.map((item) => (
            <a href={item.href} aria-current={path === item.section || path.startsWith(`${item.section}/`) ? 'page' : undefined}>
              {item.label}
            </a>
          ))}
        </nav>
        <button type="button" class="btn plain logout" onClick={onLogOut}>
          Log out
        </button>
      </header>
      <main class="content" id="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
