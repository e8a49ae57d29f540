// Generated from the OpenAPI document (/api/docs-json) by openapi-typescript: `npm run web:model`. Do not edit.
export interface paths {
    "/api/v1/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Changes to users, groups, roles and API keys, newest first (ADMIN_ORG) */
        get: operations["AuditController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/access_tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Get a JWT with Basic e-mail:password or with an API key (X-API-KEY, optionally X-API-EMAIL) */
        post: operations["AuthController_issueTokens"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/refresh_access_tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Exchange a refresh token (single use) for a new pair; reusing one revokes its session */
        post: operations["AuthController_refresh"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/apikeys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List your API keys (masked, except positioning keys, which their owner and administrators read in full) */
        get: operations["ApiKeysController_list"];
        put?: never;
        /** Generate an API key; the response is the only time its secret is shown */
        post: operations["ApiKeysController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/apikeys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change the permission or description of an API key */
        put: operations["ApiKeysController_update"];
        post?: never;
        /** Delete an API key; it and the tokens made from it stop working at once */
        delete: operations["ApiKeysController_remove"];
        options?: never;
        head?: never;
        /** Change the permission or description of an API key (PATCH, same as PUT) */
        patch: operations["ApiKeysController_update_patch"];
        trace?: never;
    };
    "/api/v1/auth/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The current dashboard session (401 when there is none) */
        get: operations["DashboardSessionController_current"];
        put?: never;
        /** Log in to the dashboard with Basic e-mail:password; sets the HttpOnly session cookie and the CSRF cookie */
        post: operations["DashboardSessionController_logIn"];
        /** Log out: ends the session on every instance and clears the cookies */
        delete: operations["DashboardSessionController_logOut"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/stream_tickets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A single-use ticket (60 s) for opening one live stream as `?ticket=`, for EventSource, which cannot send headers */
        post: operations["StreamTicketsController_issue"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's users (paginated); a USER sees only itself */
        get: operations["UsersController_list"];
        put?: never;
        /** Create a user (ADMIN_ORG) */
        post: operations["UsersController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller */
        get: operations["UsersController_me"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/users/me/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Change your password; every session opened with the old one is revoked */
        put: operations["UsersController_changePassword"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change your password; every session opened with the old one is revoked (PATCH, same as PUT) */
        patch: operations["UsersController_changePassword_patch"];
        trace?: never;
    };
    "/api/v1/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A user (administrators: any of the organization; a USER: itself) */
        get: operations["UsersController_get"];
        /** Update a user (partial): administrators anything, a USER its own profile fields */
        put: operations["UsersController_update"];
        post?: never;
        /** Delete a user (ADMIN_ORG); its tokens and keys stop working at once */
        delete: operations["UsersController_remove"];
        options?: never;
        head?: never;
        /** Update a user (partial): administrators anything, a USER its own profile fields (PATCH, same as PUT) */
        patch: operations["UsersController_update_patch"];
        trace?: never;
    };
    "/api/v1/groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's groups */
        get: operations["GroupsController_list"];
        put?: never;
        /** Create a group (ADMIN_ORG) */
        post: operations["GroupsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/groups/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A group */
        get: operations["GroupsController_get"];
        /** Update a group (partial; user_ids replaces the members) (ADMIN_ORG) */
        put: operations["GroupsController_update"];
        post?: never;
        /** Delete a group (ADMIN_ORG); its sub-groups become top-level */
        delete: operations["GroupsController_remove"];
        options?: never;
        head?: never;
        /** Update a group (partial; user_ids replaces the members) (ADMIN_ORG) (PATCH, same as PUT) */
        patch: operations["GroupsController_update_patch"];
        trace?: never;
    };
    "/api/v1/organizations/current_organization": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's organization */
        get: operations["OrganizationsController_getCurrent"];
        /** Rename the caller's organization (ADMIN_ORG) */
        put: operations["OrganizationsController_update"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Rename the caller's organization (ADMIN_ORG) (PATCH, same as PUT) */
        patch: operations["OrganizationsController_update_patch"];
        trace?: never;
    };
    "/api/v1/buildings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's buildings */
        get: operations["BuildingsController_list"];
        put?: never;
        /** Create a building */
        post: operations["BuildingsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/buildings/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A building with its floors, POIs, geofences and paths (ETag header) */
        get: operations["BuildingsController_get"];
        /** Update a building (partial; PATCH works too) */
        put: operations["BuildingsController_update"];
        post?: never;
        /** Delete a building with everything in it (floors, POIs, paths; geofences soft-deleted); with cascade=false, 409 while any remain */
        delete: operations["BuildingsController_remove"];
        options?: never;
        head?: never;
        /** Update a building (partial; PATCH works too) (PATCH, same as PUT) */
        patch: operations["BuildingsController_update_patch"];
        trace?: never;
    };
    "/api/v1/floors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's floors, optionally of one building */
        get: operations["FloorsController_list"];
        put?: never;
        /** Create a floor in a building (409 when the level is taken) */
        post: operations["FloorsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/buildings/{buildingId}/floors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The floors of a building */
        get: operations["FloorsController_listForBuilding"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/floors/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A floor (ETag header) */
        get: operations["FloorsController_get"];
        /** Update a floor (partial; PATCH works too) */
        put: operations["FloorsController_update"];
        post?: never;
        /** Delete a floor; 409 while geofences, POIs or path nodes remain unless cascade=true */
        delete: operations["FloorsController_remove"];
        options?: never;
        head?: never;
        /** Update a floor (partial; PATCH works too) (PATCH, same as PUT) */
        patch: operations["FloorsController_update_patch"];
        trace?: never;
    };
    "/api/v1/images": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Upload an image (multipart field `image`; PNG, JPEG, WebP or SVG by content; at most 20 MiB) */
        post: operations["ImagesController_upload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/images/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The bytes of an image, with its content type and an ETag; `width` asks for a thumbnail */
        get: operations["ImagesController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/geofences/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search geofences (paginated); deleted ones only with deleted=true */
        get: operations["GeofencesController_search"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/geofences": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Same as /geofences/search */
        get: operations["GeofencesController_list"];
        put?: never;
        /** Create a geofence */
        post: operations["GeofencesController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/geofences/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A geofence, deleted ones included (ETag header) */
        get: operations["GeofencesController_get"];
        /** Update a geofence (partial; PATCH works too) */
        put: operations["GeofencesController_update"];
        post?: never;
        /** Soft-delete a geofence (kept, readable by id, with deleted: true) */
        delete: operations["GeofencesController_remove"];
        options?: never;
        head?: never;
        /** Update a geofence (partial; PATCH works too) (PATCH, same as PUT) */
        patch: operations["GeofencesController_update_patch"];
        trace?: never;
    };
    "/api/v1/geofences/{id}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Undo the delete of a geofence: live again, as if created now (a live one answers as it is) */
        post: operations["GeofencesController_restore"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/geofences/{id}/rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The rules that apply to a geofence (its own over its organization's settings), and which it sets itself */
        get: operations["GeofencingRulesController_getFenceRules"];
        /** Set some of a geofence's own rules (partial; PATCH works too) */
        put: operations["GeofencingRulesController_updateFenceRules"];
        post?: never;
        /** Drop a geofence's own rules: it follows the organization's settings again */
        delete: operations["GeofencingRulesController_resetFenceRules"];
        options?: never;
        head?: never;
        /** Set some of a geofence's own rules (partial; PATCH works too) (PATCH, same as PUT) */
        patch: operations["GeofencingRulesController_updateFenceRules_patch"];
        trace?: never;
    };
    "/api/v1/geofencing/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's default geofence rules, and which of them it sets */
        get: operations["GeofencingRulesController_getSettings"];
        /** Set some of the organization's default geofence rules (partial; PATCH works too) */
        put: operations["GeofencingRulesController_updateSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Set some of the organization's default geofence rules (partial; PATCH works too) (PATCH, same as PUT) */
        patch: operations["GeofencingRulesController_updateSettings_patch"];
        trace?: never;
    };
    "/api/v1/geofencing/contains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The live geofences of a floor that hold a point (inside or possibly inside, contract 7.1) */
        get: operations["GeofencingQueriesController_contains"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/geofencing/evaluate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The same as contains for up to 1000 points at once; nothing is stored */
        post: operations["GeofencingQueriesController_evaluate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/geofencing/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The geofence event log (contract 7.3): after=<cursor> reads forward, before=<cursor> backward; limit (100, at most 1000); filters types, geofence_ids, device_ids, user_ids, building_ids (comma lists), from, to */
        get: operations["GeofenceEventsController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/geofencing/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One geofence event by id */
        get: operations["GeofenceEventsController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/geofencing/simulate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The events a recorded track would fire (contract 7.6): {"positions":[{device_id,time,lat,lng,accuracy,floor_id}…] (at most 10,000),"geofence_ids"?,"rules"?}; nothing is stored */
        post: operations["GeofenceSimulationController_simulate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/geofences/{id}/occupants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who is inside the geofence now: entered_at, dwell_seconds, visit_id and the last position of each device */
        get: operations["GeofenceOccupancyController_occupants"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/geofences/{id}/visits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The visits of a geofence under way at any time between from and to, newest first (page, size) */
        get: operations["GeofenceOccupancyController_visits"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/geofencing/occupancy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How many devices are inside each geofence now (fences with at least one), filtered by building_ids and floor_ids */
        get: operations["GeofenceOccupancyController_counts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/realtime/positions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Each device's latest position, filtered */
        get: operations["PositionsController_list"];
        put?: never;
        /** Report positions: {"positions":[…]}, a bare array or a FeatureCollection; up to 1000 items, each accepted or rejected on its own */
        post: operations["PositionsIngestController_ingest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/realtime/building/{building_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Legacy: the latest positions in one building */
        get: operations["PositionsController_forBuilding"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/realtime/organization/{organization_uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Legacy: the latest positions of the caller's organization */
        get: operations["PositionsController_forOrganization"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/paths": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The wayfinding graphs of the organization, optionally of one building */
        get: operations["PathsController_list"];
        put?: never;
        /** Not allowed: 405 (use PUT /api/v1/buildings/{id}/paths) */
        post: operations["PathsController_createList"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/buildings/{buildingId}/paths": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A building's wayfinding graph (404 until one is stored) */
        get: operations["PathsController_get"];
        /** Replace a building's whole graph (up to 20000 nodes, a body of up to 16 MiB); links name nodes, nodes name floors of the building */
        put: operations["PathsController_replace"];
        /** Not allowed: 405 (use PUT) */
        post: operations["PathsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        /** Replace a building's whole graph (up to 20000 nodes, a body of up to 16 MiB); links name nodes, nodes name floors of the building (PATCH, same as PUT) */
        patch: operations["PathsController_replace_patch"];
        trace?: never;
    };
    "/api/v1/buildings/{buildingId}/directions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A route over the building’s paths from a point, POI or device to a point, POI or the nearest POI of a category (a read: positioning keys may call it) */
        post: operations["DirectionsController_route"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/realtime/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Server-Sent Events: `event: position` with a 6.1 feature each time a device's latest fix changes; `retry: 3000` first, `: ping` every 15 s; resume with Last-Event-ID or `?after=` */
        get: operations["RealtimeStreamController_stream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/geofencing/events/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Server-Sent Events: each new geofence event as the event log serves it (`id:` its cursor, `event:` its type); filters as GET /geofencing/events (types, geofence_ids, device_ids, user_ids, building_ids, from, to); `retry: 3000` first, `: ping` every 15 s; Last-Event-ID or `?after=` replays the log after it, then goes live; `?ticket=` instead of the headers */
        get: operations["GeofenceEventStreamController_stream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/devices/{id}/navigation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The device's progress along its route (a read of a route, as directions: positioning keys may call it) */
        get: operations["NavigationController_get"];
        /** Start guiding the device to a destination (a directions request without from: the route starts at its live position); replaces a guidance it had. Positioning keys may call it */
        put: operations["NavigationController_start"];
        post?: never;
        /** End the device's guidance */
        delete: operations["NavigationController_end"];
        options?: never;
        head?: never;
        /** Start guiding the device to a destination (a directions request without from: the route starts at its live position); replaces a guidance it had. Positioning keys may call it (PATCH, same as PUT) */
        patch: operations["NavigationController_start_patch"];
        trace?: never;
    };
    "/api/v1/poi_categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's POI categories */
        get: operations["PoiCategoriesController_list"];
        put?: never;
        /** Create a POI category (409 when the code is taken) */
        post: operations["PoiCategoriesController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/poi_categories/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A POI category (ETag header) */
        get: operations["PoiCategoriesController_get"];
        /** Update a POI category (partial; PATCH works too) */
        put: operations["PoiCategoriesController_update"];
        post?: never;
        /** Delete a POI category; 409 while POIs use it unless reassign_to={id} */
        delete: operations["PoiCategoriesController_remove"];
        options?: never;
        head?: never;
        /** Update a POI category (partial; PATCH works too) (PATCH, same as PUT) */
        patch: operations["PoiCategoriesController_update_patch"];
        trace?: never;
    };
    "/api/v1/pois": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's POIs, optionally of one building and of one type */
        get: operations["PoisController_list"];
        put?: never;
        /** Create a POI (georeferences or cartesians; the other is derived) */
        post: operations["PoisController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/buildings/{buildingId}/pois": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The POIs of a building */
        get: operations["PoisController_listForBuilding"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/pois/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A POI (ETag header) */
        get: operations["PoisController_get"];
        /** Update a POI (partial; PATCH works too) */
        put: operations["PoisController_update"];
        post?: never;
        /** Delete a POI */
        delete: operations["PoisController_remove"];
        options?: never;
        head?: never;
        /** Update a POI (partial; PATCH works too) (PATCH, same as PUT) */
        patch: operations["PoisController_update_patch"];
        trace?: never;
    };
    "/api/v1/pois_bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create up to 1000 POIs at once, all or nothing; errors name the item index ([i].field) */
        post: operations["PoisController_createBulk"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's webhooks (secrets never shown) */
        get: operations["WebhooksController_list"];
        put?: never;
        /** Register a webhook; the answer holds its signing secret, shown this once */
        post: operations["WebhooksController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A webhook */
        get: operations["WebhooksController_get"];
        /** Update a webhook (partial); enabling it again clears a disabled_reason */
        put: operations["WebhooksController_update"];
        post?: never;
        /** Delete a webhook */
        delete: operations["WebhooksController_remove"];
        options?: never;
        head?: never;
        /** Update a webhook (partial); enabling it again clears a disabled_reason (PATCH, same as PUT) */
        patch: operations["WebhooksController_update_patch"];
        trace?: never;
    };
    "/api/v1/webhooks/{id}/rotate_secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new signing secret, shown once; the previous one keeps signing for 24 h beside it */
        post: operations["WebhooksController_rotateSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a `webhook.test` event to this endpoint now (signed and retried like any event) */
        post: operations["WebhooksController_test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The endpoint's deliveries, newest first, each with its attempts (status=dead lists the dead letters) */
        get: operations["WebhooksController_listDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/deliveries/{deliveryId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Attempt a delivery again now (a dead one gets one more attempt) */
        post: operations["WebhooksController_retry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send events of the log to this webhook again, with their own webhook-id: {"from","to"} (occurred_at, at most 31 days and 10,000 events; only the types and filters the webhook subscribes to) or {"event_ids":[…]} (at most 1,000, delivered whatever it subscribes to) */
        post: operations["WebhooksController_replay"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/infrastructure/gateways": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A building's BLE gateways
         * @description Content negotiation: `Accept: text/csv` answers the CSV spreadsheet format (one row per gateway, columns id,floor_id,x,y,lat,lng,height_m,hardware_id,name,format).
         */
        get: operations["GatewaysController_list"];
        /**
         * Replace a building's gateways, in one transaction
         * @description A JSON array of gateways (ids and timestamps are ignored; a gateway already there, by hardware_id, keeps its id), or a CSV body (Content-Type: text/csv). Content negotiation: `Accept: text/csv` answers the CSV spreadsheet format (one row per gateway, columns id,floor_id,x,y,lat,lng,height_m,hardware_id,name,format).
         */
        put: operations["GatewaysController_replace"];
        /** Register a gateway (x/y floor metres or lat/lng; the other is derived) */
        post: operations["GatewaysController_create"];
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Replace a building's gateways, in one transaction (PATCH, same as PUT)
         * @description A JSON array of gateways (ids and timestamps are ignored; a gateway already there, by hardware_id, keeps its id), or a CSV body (Content-Type: text/csv). Content negotiation: `Accept: text/csv` answers the CSV spreadsheet format (one row per gateway, columns id,floor_id,x,y,lat,lng,height_m,hardware_id,name,format).
         */
        patch: operations["GatewaysController_replace_patch"];
        trace?: never;
    };
    "/api/v1/infrastructure/gateways/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A gateway (ETag header) */
        get: operations["GatewaysController_get"];
        /** Update a gateway (partial; PATCH works too) */
        put: operations["GatewaysController_update"];
        post?: never;
        /** Remove a gateway, its health and its observations */
        delete: operations["GatewaysController_remove"];
        options?: never;
        head?: never;
        /** Update a gateway (partial; PATCH works too) (PATCH, same as PUT) */
        patch: operations["GatewaysController_update_patch"];
        trace?: never;
    };
    "/api/v1/infrastructure/gateways/{id}/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A gateway's health: last seen, messages per second, tags heard, messages not understood and why */
        get: operations["GatewaysController_health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/gateways/{hardware_id}/observations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A gateway's message, in its registered format (Ruuvi's batch, Minew's array, Cartograph JSON)
         * @description The key (positioning or read-write) decides the organization; the gateway must be registered there by this hardware id. The key may come as X-API-KEY or, as gateway firmware sends it, in Authorization: Bearer, Token, the bare key, or Basic with the key as the password. The answer comes once the observations of the organization’s tags are stored. The same messages may come over MQTT (docs/api.md, MQTT for gateways).
         */
        post: operations["GatewayIngestController_take"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/infrastructure": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A building's wifi access points and BLE beacons
         * @description Content negotiation: `Accept: text/csv` answers the CSV spreadsheet format (one row per transmitter, columns type,id,floor_id,x,y,lat,lng,bssid,ssid,frequency,uuid,major,minor,tx_power,battery).
         */
        get: operations["InfrastructureController_read"];
        /**
         * Replace a building's access points and beacons (of one type with type=), in one transaction
         * @description JSON in the GET shape (ids, timestamps and beacon_uuids are ignored; a transmitter already there keeps its id), or a CSV body (Content-Type: text/csv). Content negotiation: `Accept: text/csv` answers the CSV spreadsheet format (one row per transmitter, columns type,id,floor_id,x,y,lat,lng,bssid,ssid,frequency,uuid,major,minor,tx_power,battery).
         */
        put: operations["InfrastructureController_replace"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Replace a building's access points and beacons (of one type with type=), in one transaction (PATCH, same as PUT)
         * @description JSON in the GET shape (ids, timestamps and beacon_uuids are ignored; a transmitter already there keeps its id), or a CSV body (Content-Type: text/csv). Content negotiation: `Accept: text/csv` answers the CSV spreadsheet format (one row per transmitter, columns type,id,floor_id,x,y,lat,lng,bssid,ssid,frequency,uuid,major,minor,tx_power,battery).
         */
        patch: operations["InfrastructureController_replace_patch"];
        trace?: never;
    };
    "/api/v1/infrastructure/wifi": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add a wifi access point (x/y floor metres or lat/lng; the other is derived) */
        post: operations["InfrastructureController_createWifi"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/infrastructure/wifi/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A wifi access point (ETag header) */
        get: operations["InfrastructureController_getWifi"];
        /** Update a wifi access point (partial; PATCH works too) */
        put: operations["InfrastructureController_updateWifi"];
        post?: never;
        /** Remove a wifi access point */
        delete: operations["InfrastructureController_removeWifi"];
        options?: never;
        head?: never;
        /** Update a wifi access point (partial; PATCH works too) (PATCH, same as PUT) */
        patch: operations["InfrastructureController_updateWifi_patch"];
        trace?: never;
    };
    "/api/v1/infrastructure/ble": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add a BLE beacon (x/y floor metres or lat/lng; the other is derived) */
        post: operations["InfrastructureController_createBle"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/infrastructure/ble/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A BLE beacon (ETag header) */
        get: operations["InfrastructureController_getBle"];
        /** Update a BLE beacon (partial; PATCH works too) */
        put: operations["InfrastructureController_updateBle"];
        post?: never;
        /** Remove a BLE beacon */
        delete: operations["InfrastructureController_removeBle"];
        options?: never;
        head?: never;
        /** Update a BLE beacon (partial; PATCH works too) (PATCH, same as PUT) */
        patch: operations["InfrastructureController_updateBle_patch"];
        trace?: never;
    };
    "/api/v1/realtime/scans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Report what devices heard (BLE beacons, wifi access points); the server estimates each position and stores it like a reported fix */
        post: operations["ScansController_ingest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/infrastructure/reference_points": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A building's reference points (scans taken at known positions), of one floor with floor_id
         * @description Content negotiation: `Accept: text/csv` answers CSV, one row per reading (columns point,floor_id,x,y,lat,lng,type,uuid,major,minor,bssid,rssi; the rows of a point share its `point` label and position).
         */
        get: operations["ReferencePointsController_list"];
        /**
         * Replace a building's reference points (of one floor with floor_id), in one transaction
         * @description A JSON array of reference points, or a CSV body (Content-Type: text/csv); up to 16 MiB. Content negotiation: `Accept: text/csv` answers CSV, one row per reading (columns point,floor_id,x,y,lat,lng,type,uuid,major,minor,bssid,rssi; the rows of a point share its `point` label and position).
         */
        put: operations["ReferencePointsController_replace"];
        /** Add a reference point: a scan taken at a known position (x/y floor metres or lat/lng) */
        post: operations["ReferencePointsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Replace a building's reference points (of one floor with floor_id), in one transaction (PATCH, same as PUT)
         * @description A JSON array of reference points, or a CSV body (Content-Type: text/csv); up to 16 MiB. Content negotiation: `Accept: text/csv` answers CSV, one row per reading (columns point,floor_id,x,y,lat,lng,type,uuid,major,minor,bssid,rssi; the rows of a point share its `point` label and position).
         */
        patch: operations["ReferencePointsController_replace_patch"];
        trace?: never;
    };
    "/api/v1/infrastructure/reference_points/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A reference point (ETag header) */
        get: operations["ReferencePointsController_get"];
        /** Update a reference point (readings sent replace those of their kind) (partial; PATCH works too) */
        put: operations["ReferencePointsController_update"];
        post?: never;
        /** Remove a reference point */
        delete: operations["ReferencePointsController_remove"];
        options?: never;
        head?: never;
        /** Update a reference point (readings sent replace those of their kind) (partial; PATCH works too) (PATCH, same as PUT) */
        patch: operations["ReferencePointsController_update_patch"];
        trace?: never;
    };
    "/api/v1/infrastructure/radio_model": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The radio model positions from scans use on each floor of a building: exponent, shadowing, per-transmitter offsets, what it rests on, the method */
        get: operations["RadioModelController_describe"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/infrastructure/tracking": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A building's tracking settings: whether positions from scans are tracked, and after how long a silent device's track starts afresh */
        get: operations["TrackingSettingsController_get"];
        /** Set some of a building's tracking settings (partial; PATCH works too) */
        put: operations["TrackingSettingsController_update"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Set some of a building's tracking settings (partial; PATCH works too) (PATCH, same as PUT) */
        patch: operations["TrackingSettingsController_update_patch"];
        trace?: never;
    };
    "/api/v1/devices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's devices (paginated), with last seen time and last position */
        get: operations["DevicesController_list"];
        put?: never;
        /** Register a device before its first fix, with its tag identity for BLE gateways (ADMIN_ORG) */
        post: operations["DevicesController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/devices/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A device, with last seen time and last position */
        get: operations["DevicesController_get"];
        /** Rename a device or change its tag identity (ADMIN_ORG; partial, PATCH works too) */
        put: operations["DevicesController_update"];
        post?: never;
        /** Delete a device and its position history (ADMIN_ORG) */
        delete: operations["DevicesController_remove"];
        options?: never;
        head?: never;
        /** Rename a device or change its tag identity (ADMIN_ORG; partial, PATCH works too) (PATCH, same as PUT) */
        patch: operations["DevicesController_update_patch"];
        trace?: never;
    };
    "/api/v1/reports/user_positions.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Trajectory: a building's positions in a time range, ordered by time, with session_mark */
        get: operations["ReportsController_userPositionsJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/reports/user_positions.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The trajectory report as a CSV download */
        get: operations["ReportsController_userPositionsCsv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/reports/geofencing_stay_time.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Time spent in each geofence per bucket, device and user, visits split at bucket edges (building_ids required; from_date, to_date, time_zone, grouping) */
        get: operations["ReportsController_stayTimeJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/reports/geofencing_stay_time.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The geofencing stay time report as a CSV download */
        get: operations["ReportsController_stayTimeCsv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/reports/geofencing_sessions_matches.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One row per geofence visit under way in the range, with the visit_id its events carry (building_ids required; from_date, to_date, time_zone) */
        get: operations["ReportsController_sessionsMatchesJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/reports/geofencing_sessions_matches.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The geofencing sessions report as a CSV download */
        get: operations["ReportsController_sessionsMatchesCsv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/reports/visitors.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Distinct devices seen in a building per hour, day, week or month of a time zone */
        get: operations["BuildingReportsController_visitorsJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/reports/visitors.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The visitors report as a CSV download */
        get: operations["BuildingReportsController_visitorsCsv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/reports/positioning_time.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Seconds positioned per device in each bucket: total, mean and standard deviation over the devices seen */
        get: operations["BuildingReportsController_positioningTimeJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/reports/positioning_time.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The positioning_time report as a CSV download */
        get: operations["BuildingReportsController_positioningTimeCsv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/geofencing/analytics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Per geofence and bucket: entries, exits, unique devices and users, total/avg/p50/p90 stay seconds, peak occupancy (contract 8.2). building_ids and geofence_ids in any list form, from/to (or from_date/to_date), organizationId or organization_id (the caller's), grouping (none|hour|day|week|month), time_zone */
        get: operations["GeofencingAnalyticsController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/geofencing/analytics/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The same analytics on the hosted API's second path. Per geofence and bucket: entries, exits, unique devices and users, total/avg/p50/p90 stay seconds, peak occupancy (contract 8.2). building_ids and geofence_ids in any list form, from/to (or from_date/to_date), organizationId or organization_id (the caller's), grouping (none|hour|day|week|month), time_zone */
        get: operations["GeofencingAnalyticsController_search"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/geofencing/occupancy/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Occupancy over time per geofence: for each bucket the peak, the time-weighted mean and the end-of-bucket count of visits under way (geofence_ids, from, to, grouping default hour, time_zone) */
        get: operations["GeofencingAnalyticsController_history"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/floors/{id}/heatmap": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Density of positions on a floor over a range: fixes per square cell of the floor grid */
        get: operations["HeatmapsController_floorHeatmap"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/version": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Server and API version */
        get: operations["VersionController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The process is up */
        get: operations["HealthController_live"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The server has finished starting, can reach its database, and its process is sound (no polluted built-in prototype) */
        get: operations["HealthController_ready"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AuditEventResponseDto: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            actor_id: string | null;
            /** @example user.update */
            action: string;
            /** @example user */
            target_type: string;
            target_id: string;
            /** @example 192.0.2.10 */
            ip: string | null;
            /** @example 2020-05-08T10:26:34.801+00:00 */
            created_at: string;
        };
        PageMetadataDto: {
            first: boolean;
            last: boolean;
            total_pages: number;
            total_elements: number;
            number_of_elements: number;
            size: number;
            /** @description 1-based number of this page */
            number: number;
        };
        FieldErrorDto: {
            /** @example name should not be empty */
            message: string;
            /** @example invalid */
            code: string;
            /**
             * @description The field (dotted path) the error is about
             * @example name
             */
            fields: string;
            /** @description The rejected value, when it is safe to echo */
            value?: Record<string, never>;
        };
        ErrorResponseDto: {
            /** @example 422 */
            status: number;
            /**
             * @example validation_failed
             * @enum {string}
             */
            code: "bad_request" | "unauthorized" | "invalid_credentials" | "forbidden" | "entity_not_found" | "route_not_found" | "conflict" | "payload_too_large" | "validation_failed" | "too_many_requests" | "cursor_expired" | "service_unavailable" | "internal_error";
            /** @example The request is not valid */
            message: string;
            errors: components["schemas"]["FieldErrorDto"][];
        };
        TokenPairDto: {
            /** @description JWT (HS256) for `Authorization: Bearer`; valid 4 days by default */
            access_token: string;
            /**
             * @description Single-use token for POST /api/v1/auth/refresh_access_tokens
             * @example cgr_…
             */
            refresh_token: string;
        };
        RefreshTokensDto: {
            /** @description The access token issued with the refresh token (it may have expired) */
            access_token: string;
            refresh_token: string;
        };
        ApiKeyResponseDto: {
            /** Format: uuid */
            id: string;
            /**
             * @description The full key right after creation, and always for positioning keys created since they became readable; masked otherwise (it then contains `*`)
             * @example cgk_AbCd********wXyZ
             */
            apikey: string;
            /** @enum {string} */
            permission: "disabled" | "positioning" | "read-only" | "cartography-read-write" | "read-write";
            description: string;
            /** @example 2020-05-08T10:26:34.801+00:00 */
            created_at: string;
            /** @example 2020-05-08T10:26:34.801+00:00 */
            last_used_at: string | null;
        };
        CreateApiKeyDto: {
            /**
             * @default read-only
             * @enum {string}
             */
            permission: "disabled" | "positioning" | "read-only" | "cartography-read-write" | "read-write";
            /** @example Kiosk app, 3rd floor */
            description?: string;
        };
        UpdateApiKeyDto: {
            /**
             * @default read-only
             * @enum {string}
             */
            permission: "disabled" | "positioning" | "read-only" | "cartography-read-write" | "read-write";
            /** @example Kiosk app, 3rd floor */
            description?: string;
        };
        SessionUserDto: {
            /** Format: uuid */
            id: string;
            email: string;
            /** @enum {string} */
            role: "ADMIN_ORG" | "USER";
            /** Format: uuid */
            organization_id: string;
        };
        DashboardSessionDto: {
            user: components["schemas"]["SessionUserDto"];
            /** @description When the session cookie stops working */
            expires_at: string;
        };
        StreamTicketDto: {
            /** @description Pass once as `?ticket=` to a stream route */
            ticket: string;
            /** @example 60 */
            expires_in: number;
        };
        UserResponseDto: {
            /** Format: uuid */
            id: string;
            email: string;
            code: string;
            full_name: string;
            /** @enum {string} */
            role: "ADMIN_ORG" | "USER";
            /** Format: uuid */
            organization_id: string;
            group_ids: string[];
            building_ids: number[];
            locale: string;
            info: string;
            icon_colour: string;
            is_verified: boolean;
            /** @example 2020-05-08T10:26:34.801+00:00 */
            last_activity: string | null;
            /** @example 2020-05-08T10:26:34.801+00:00 */
            created_at: string;
            /** @example 2020-05-08T10:26:34.801+00:00 */
            updated_at: string;
        };
        CreateUserDto: {
            /**
             * @description Unique across the server, case-insensitive
             * @example ana@example.com
             */
            email: string;
            /** @description At least 12 characters, not the e-mail */
            password: string;
            full_name?: string;
            code?: string;
            /**
             * @default USER
             * @enum {string}
             */
            role: "ADMIN_ORG" | "USER";
            /** @example en */
            locale?: string;
            info?: string;
            /** @example #3366ff */
            icon_colour?: string;
            /** @default false */
            is_verified: boolean;
            group_ids?: string[];
            /** @description Restrict a USER to these buildings; empty: all */
            building_ids?: number[];
        };
        ChangePasswordDto: {
            current_password: string;
            new_password: string;
        };
        UpdateUserDto: {
            /**
             * @description Unique across the server, case-insensitive
             * @example ana@example.com
             */
            email?: string;
            /** @description At least 12 characters, not the e-mail */
            password?: string;
            full_name?: string;
            code?: string;
            /**
             * @default USER
             * @enum {string}
             */
            role: "ADMIN_ORG" | "USER";
            /** @example en */
            locale?: string;
            info?: string;
            /** @example #3366ff */
            icon_colour?: string;
            /** @default false */
            is_verified: boolean;
            group_ids?: string[];
            /** @description Restrict a USER to these buildings; empty: all */
            building_ids?: number[];
        };
        GroupResponseDto: {
            /** Format: uuid */
            id: string;
            name: string;
            description: string;
            /** Format: uuid */
            parent_group_id: string | null;
            /** Format: uuid */
            organization_id: string;
            user_ids: string[];
            /** @example 2020-05-08T10:26:34.801+00:00 */
            created_at: string;
            /** @example 2020-05-08T10:26:34.801+00:00 */
            updated_at: string;
        };
        CreateGroupDto: {
            /** @example Night shift */
            name: string;
            description?: string;
            /**
             * Format: uuid
             * @description null: a top-level group
             */
            parent_group_id?: string | null;
            /** @description The members (replaces them on update) */
            user_ids?: string[];
        };
        UpdateGroupDto: {
            /** @example Night shift */
            name?: string;
            description?: string;
            /**
             * Format: uuid
             * @description null: a top-level group
             */
            parent_group_id?: string | null;
            /** @description The members (replaces them on update) */
            user_ids?: string[];
        };
        OrganizationResponseDto: {
            /** Format: uuid */
            id: string;
            /** @example Acme Logistics */
            name: string;
            /**
             * @description The organization's topic prefix on an external MQTT broker (MQTT_URL): gateways publish under `{prefix}/` + a gateway topic
             * @example org/0f8fad5b-d9cb-469f-a165-70867728950e
             */
            mqtt_topic_prefix: string;
            /** @example 2020-05-08T10:26:34.801+00:00 */
            created_at: string;
            /** @example 2020-05-08T10:26:34.801+00:00 */
            updated_at: string;
        };
        UpdateOrganizationDto: {
            name?: string;
        };
        LocationDto: {
            /** @example 42.8723597 */
            lat: number;
            /** @example -8.5633224 */
            lng: number;
        };
        DimensionsDto: {
            /**
             * @description Metres
             * @example 120.5
             */
            width: number;
            /**
             * @description Metres
             * @example 80
             */
            length: number;
        };
        CustomFieldDto: {
            /** @example zone */
            key: string;
            /** @example A */
            value: string;
        };
        BuildingResponseDto: {
            /** @example 5962 */
            id: number;
            name: string;
            description: string;
            info: string;
            location: components["schemas"]["LocationDto"];
            dimensions: components["schemas"]["DimensionsDto"];
            rotation: number;
            /** @description The four corners of the building rectangle (location, dimensions, rotation), in the order of its floor plan: (x, y) = (0, 0), (width, 0), (width, length), (0, length); with rotation 0 that is south-west, south-east, north-east, north-west */
            corners: [
                components["schemas"]["LocationDto"],
                components["schemas"]["LocationDto"],
                components["schemas"]["LocationDto"],
                components["schemas"]["LocationDto"]
            ];
            custom_fields: components["schemas"]["CustomFieldDto"][];
            /**
             * Format: uuid
             * @description The user who created it
             */
            user_uuid: string | null;
            /** @example 2020-05-08T10:26:34.801+00:00 */
            created_at: string;
            /** @example 2020-05-08T10:26:34.801+00:00 */
            updated_at: string;
        };
        FloorMapsDto: {
            scale: number | null;
            /** @description Floor plan image id; "" when none */
            map_id: string;
            /**
             * @description Relative URL of the floor plan; "" when none
             * @example /api/v1/images/3f1c
             */
            map_url: string;
        };
        FloorResponseDto: {
            id: number;
            building_id: number;
            level: number;
            level_height: number | null;
            name: string;
            custom_fields: components["schemas"]["CustomFieldDto"][];
            maps: components["schemas"]["FloorMapsDto"];
            /** @example 2020-05-08T10:26:34.801+00:00 */
            created_at: string;
            /** @example 2020-05-08T10:26:34.801+00:00 */
            updated_at: string;
        };
        CartesiansDto: {
            /** @description Metres along the building width */
            x: number;
            /** @description Metres along the building length */
            y: number;
        };
        PoiPositionDto: {
            floor_id: number | null;
            lat: number;
            lng: number;
            x: number;
            y: number;
            georeferences: components["schemas"]["LocationDto"];
            cartesians: components["schemas"]["CartesiansDto"];
            radius: number | null;
        };
        PoiResponseDto: {
            id: number;
            building_id: number;
            name: string;
            /** @description Sanitized HTML */
            info: string;
            /** @description HTML as sent */
            info_unsafe: string;
            category_id: number | null;
            /** @description English name of the category; "" when none */
            category_name: string;
            custom_fields: components["schemas"]["CustomFieldDto"][];
            /** @enum {string} */
            type: "indoor" | "outdoor";
            /** @example 2020-05-08T10:26:34.801+00:00 */
            created_at: string;
            /** @example 2020-05-08T10:26:34.801+00:00 */
            updated_at: string;
            position: components["schemas"]["PoiPositionDto"];
        };
        GeofenceResponseDto: {
            /** Format: uuid */
            id: string;
            /** @example 2020-05-08T10:26:34.801Z[UTC] */
            created_at: string;
            /** @example 2020-05-08T10:26:34.801Z[UTC] */
            updated_at: string;
            custom_fields: components["schemas"]["CustomFieldDto"][];
            code: string;
            name: string;
            /** Format: uuid */
            organization_id: string;
            info: string;
            /** @description Same as info */
            description: string;
            /** @enum {string} */
            type: "POLYGON";
            geometric: [
                number,
                number
            ][];
            floor_id: number;
            /** @description Same as floor_id */
            level_id: number;
            /** @example 5962 */
            building_id: string;
            deleted: boolean;
        };
        BuildingDetailResponseDto: {
            /** @example 5962 */
            id: number;
            name: string;
            description: string;
            info: string;
            location: components["schemas"]["LocationDto"];
            dimensions: components["schemas"]["DimensionsDto"];
            rotation: number;
            /** @description The four corners of the building rectangle (location, dimensions, rotation), in the order of its floor plan: (x, y) = (0, 0), (width, 0), (width, length), (0, length); with rotation 0 that is south-west, south-east, north-east, north-west */
            corners: [
                components["schemas"]["LocationDto"],
                components["schemas"]["LocationDto"],
                components["schemas"]["LocationDto"],
                components["schemas"]["LocationDto"]
            ];
            custom_fields: components["schemas"]["CustomFieldDto"][];
            /**
             * Format: uuid
             * @description The user who created it
             */
            user_uuid: string | null;
            /** @example 2020-05-08T10:26:34.801+00:00 */
            created_at: string;
            /** @example 2020-05-08T10:26:34.801+00:00 */
            updated_at: string;
            floors: components["schemas"]["FloorResponseDto"][];
            indoor_pois: components["schemas"]["PoiResponseDto"][];
            outdoor_pois: components["schemas"]["PoiResponseDto"][];
            /** @description Geofences that are not deleted */
            geofences: components["schemas"]["GeofenceResponseDto"][];
            /** @description The wayfinding graph { nodes, links }, or {} when none is stored */
            paths: {
                [key: string]: unknown;
            };
            /** @description Always empty: events are not supported */
            events: Record<string, never>[];
        };
        CreateBuildingDto: {
            /** @example Headquarters */
            name: string;
            description?: string;
            /** @description HTML; sanitized on write */
            info?: string;
            /** @description Centre of the building */
            location: components["schemas"]["LocationDto"];
            dimensions: components["schemas"]["DimensionsDto"];
            /**
             * @description Radians, counter-clockwise
             * @default 0
             */
            rotation: number;
            custom_fields?: components["schemas"]["CustomFieldDto"][];
        };
        UpdateBuildingDto: {
            /** @example Headquarters */
            name?: string;
            description?: string;
            /** @description HTML; sanitized on write */
            info?: string;
            /** @description Centre of the building */
            location?: components["schemas"]["LocationDto"];
            dimensions?: components["schemas"]["DimensionsDto"];
            /**
             * @description Radians, counter-clockwise
             * @default 0
             */
            rotation: number;
            custom_fields?: components["schemas"]["CustomFieldDto"][];
        };
        CreateFloorDto: {
            /** @example 5962 */
            building_id: number;
            /**
             * @description Level number; 0 is the ground floor
             * @example 0
             */
            level: number;
            /**
             * @description Metres
             * @example 3.5
             */
            level_height?: number;
            /** @example Ground floor */
            name?: string;
            /**
             * Format: uuid
             * @description Id of an uploaded floor plan image; "" removes it
             */
            map_id?: string;
            /** @description Pixels per metre of the floor plan */
            scale?: number;
            custom_fields?: components["schemas"]["CustomFieldDto"][];
        };
        UpdateFloorDto: {
            /**
             * @description Level number; 0 is the ground floor
             * @example 0
             */
            level?: number;
            /**
             * @description Metres
             * @example 3.5
             */
            level_height?: number;
            /** @example Ground floor */
            name?: string;
            /**
             * Format: uuid
             * @description Id of an uploaded floor plan image; "" removes it
             */
            map_id?: string;
            /** @description Pixels per metre of the floor plan */
            scale?: number;
            custom_fields?: components["schemas"]["CustomFieldDto"][];
            /** @description Must be the current building if sent */
            building_id?: number;
        };
        UploadImageDto: {
            /**
             * Format: binary
             * @description PNG, JPEG, WebP or SVG, at most 20 MiB
             */
            image: string;
        };
        ImageResponseDto: {
            /** Format: uuid */
            id: string;
            /**
             * @description Relative to the server
             * @example /api/v1/images/0f8c9a8e-1b1e-4a47-9a4e-0c8f8b6f3f10
             */
            url: string;
        };
        CreateGeofenceDto: {
            /** @example Loading bay */
            name: string;
            /**
             * @description The building id; a string of digits ("5962", as answers carry it) is accepted too
             * @example 5962
             */
            building_id: number;
            /** @example 11915 */
            floor_id: number;
            /**
             * @description [lat, lng] pairs of a closed ring (first = last), 4 to 10,000 pairs, no self-intersection
             * @example [
             *       [
             *         42.8723597,
             *         -8.5633224
             *       ],
             *       [
             *         42.8724068,
             *         -8.5632165
             *       ],
             *       [
             *         42.8723292,
             *         -8.5631467
             *       ],
             *       [
             *         42.8723597,
             *         -8.5633224
             *       ]
             *     ]
             */
            geometric: [
                number,
                number
            ][];
            /** @example geo4 */
            code?: string;
            /** @description HTML; sanitized on write */
            info?: string;
            /** @description Same as info (used when info is absent) */
            description?: string;
            /**
             * @default POLYGON
             * @enum {string}
             */
            type: "POLYGON";
            custom_fields?: components["schemas"]["CustomFieldDto"][];
        };
        UpdateGeofenceDto: {
            /** @example Loading bay */
            name?: string;
            /**
             * @description The building id; a string of digits ("5962", as answers carry it) is accepted too
             * @example 5962
             */
            building_id?: number;
            /** @example 11915 */
            floor_id?: number;
            /**
             * @description [lat, lng] pairs of a closed ring (first = last), 4 to 10,000 pairs, no self-intersection
             * @example [
             *       [
             *         42.8723597,
             *         -8.5633224
             *       ],
             *       [
             *         42.8724068,
             *         -8.5632165
             *       ],
             *       [
             *         42.8723292,
             *         -8.5631467
             *       ],
             *       [
             *         42.8723597,
             *         -8.5633224
             *       ]
             *     ]
             */
            geometric?: [
                number,
                number
            ][];
            /** @example geo4 */
            code?: string;
            /** @description HTML; sanitized on write */
            info?: string;
            /** @description Same as info (used when info is absent) */
            description?: string;
            /**
             * @default POLYGON
             * @enum {string}
             */
            type: "POLYGON";
            custom_fields?: components["schemas"]["CustomFieldDto"][];
        };
        GeofenceRulesPatchDto: {
            /**
             * @description false: the fence fires no events
             * @default true
             */
            enabled: Record<string, never> | null;
            /**
             * @description center: d ≤ 0; contains: d ≤ −r; intersects: d < r
             * @default center
             * @enum {string|null}
             */
            enter_when: "center" | "contains" | "intersects" | null;
            /**
             * @description center_out: d ≥ buffer_m; not_intersects: d ≥ r + buffer_m; not_contains: d > −r
             * @default center_out
             * @enum {string|null}
             */
            exit_when: "center_out" | "not_intersects" | "not_contains" | null;
            /**
             * @description r = max(0.5, accuracy_factor × accuracy)
             * @default 1
             */
            accuracy_factor: Record<string, never> | null;
            /**
             * @description Less accurate fixes never change a state
             * @default 20
             */
            max_accuracy_m: Record<string, never> | null;
            /**
             * @description Hysteresis past the edge, metres
             * @default 1
             */
            buffer_m: Record<string, never> | null;
            /** @default 3 */
            min_dwell_seconds: number | null;
            /** @default 10 */
            exit_grace_seconds: number | null;
            /**
             * @description 0: no dwell events
             * @default 300
             */
            dwell_seconds: number | null;
            /** @default 0 */
            cooldown_seconds: number | null;
            /** @default 120 */
            stale_after_seconds: number | null;
            /** @default false */
            initial_trigger: Record<string, never> | null;
        };
        GeofenceRulesResponseDto: {
            enabled: boolean;
            /** @enum {string} */
            enter_when: "center" | "contains" | "intersects";
            /** @enum {string} */
            exit_when: "center_out" | "not_intersects" | "not_contains";
            accuracy_factor: number;
            max_accuracy_m: number;
            buffer_m: number;
            min_dwell_seconds: number;
            exit_grace_seconds: number;
            dwell_seconds: number;
            cooldown_seconds: number;
            stale_after_seconds: number;
            initial_trigger: boolean;
            /** Format: uuid */
            geofence_id: string;
            /** @description The fields the fence sets itself; every other field is the organization's setting */
            overrides: components["schemas"]["GeofenceRulesPatchDto"];
        };
        GeofencingSettingsResponseDto: {
            enabled: boolean;
            /** @enum {string} */
            enter_when: "center" | "contains" | "intersects";
            /** @enum {string} */
            exit_when: "center_out" | "not_intersects" | "not_contains";
            accuracy_factor: number;
            max_accuracy_m: number;
            buffer_m: number;
            min_dwell_seconds: number;
            exit_grace_seconds: number;
            dwell_seconds: number;
            cooldown_seconds: number;
            stale_after_seconds: number;
            initial_trigger: boolean;
            /** Format: uuid */
            organization_id: string;
            /** @description The fields the organization sets; every other field is the contract's default */
            overrides: components["schemas"]["GeofenceRulesPatchDto"];
        };
        FenceMatchDto: {
            /** Format: uuid */
            geofence_id: string;
            name: string;
            code: string;
            /** @enum {string} */
            classification: "inside" | "possibly_inside";
            /** @description Share of the accuracy disk inside the fence, 0 to 1 */
            overlap: number;
            /** @description Signed distance from the point to the edge in metres: negative inside the fence */
            distance_to_edge_m: number;
        };
        ContainsResponseDto: {
            inside: components["schemas"]["FenceMatchDto"][];
            possibly_inside: components["schemas"]["FenceMatchDto"][];
        };
        EvaluatePointDto: {
            lat: number;
            lng: number;
            floor_id: number;
            accuracy?: Record<string, never>;
        };
        EvaluateBodyDto: {
            points: components["schemas"]["EvaluatePointDto"][];
        };
        EvaluateResponseDto: {
            /** @description One answer per point, in the order sent */
            results: components["schemas"]["ContainsResponseDto"][];
        };
        PathNodeDto: {
            id: number;
            floor_id: number;
            x: number;
            y: number;
            lat: number;
            lng: number;
        };
        PathLinkDto: {
            source: number;
            target: number;
            /** @enum {string} */
            origin: "both" | "source" | "target";
            tags: string[];
            accessible: boolean;
            /**
             * @description As given; null: derived from the tags
             * @enum {string|null}
             */
            connector: "stairs" | "elevator" | "escalator" | "ramp" | null;
        };
        RouteSettingsResponseDto: {
            snap_distance_m: number;
            stairs_speed_factor: number;
            stairs_s_per_floor: number;
            elevator_wait_s: number;
            elevator_s_per_floor: number;
            escalator_s_per_floor: number;
            ramp_speed_factor: number;
            off_route_distance_m: number;
            off_route_fixes: number;
        };
        PathsResponseDto: {
            building_id: number;
            nodes: components["schemas"]["PathNodeDto"][];
            links: components["schemas"]["PathLinkDto"][];
            /** @description How directions are timed and snapped: the values set, defaults for the others */
            settings: components["schemas"]["RouteSettingsResponseDto"];
        };
        PathNodeInputDto: {
            /** @description Floor metres (with y); or lat/lng */
            x?: number;
            y?: number;
            /** @description Instead of x/y (with lng) */
            lat?: number;
            lng?: number;
            /** @description Unique within the graph */
            id: number;
            floor_id: number;
        };
        PathLinkInputDto: {
            /** @description Id of a node of the graph */
            source: number;
            /** @description Id of a node of the graph */
            target: number;
            /**
             * @description Which way the link can be walked
             * @default both
             * @enum {string}
             */
            origin: "both" | "source" | "target";
            /** @default [] */
            tags: string[];
            /** @default true */
            accessible: boolean;
            /**
             * @description What a link between two floors is; null or left out: derived from its tags (stairs, lift, escalator, ramp…), else elevator when accessible, stairs when not. Only on a link between two floors
             * @default null
             * @enum {string|null}
             */
            connector: "stairs" | "elevator" | "escalator" | "ramp" | null;
        };
        RouteSettingsDto: {
            /**
             * @description Metres: an end farther than this from every usable link of its floor cannot be routed (422 end_unreachable)
             * @default 10
             */
            snap_distance_m: number;
            /**
             * @description Walking speed on stairs relative to corridors (over their horizontal length)
             * @default 0.5
             */
            stairs_speed_factor: number;
            /**
             * @description Seconds per storey on stairs
             * @default 15
             */
            stairs_s_per_floor: number;
            /**
             * @description Seconds waited for a lift, once per ride
             * @default 30
             */
            elevator_wait_s: number;
            /**
             * @description Seconds per storey in a lift
             * @default 5
             */
            elevator_s_per_floor: number;
            /**
             * @description Seconds per storey on an escalator
             * @default 20
             */
            escalator_s_per_floor: number;
            /**
             * @description Walking speed on a ramp between floors relative to corridors
             * @default 0.8
             */
            ramp_speed_factor: number;
            /**
             * @description Metres: a guided device (PUT /devices/{id}/navigation) farther than this from its route is off it
             * @default 5
             */
            off_route_distance_m: number;
            /**
             * @description This many off-route fixes in a row route a guided device again from where it is
             * @default 3
             */
            off_route_fixes: number;
        };
        ReplacePathsDto: {
            nodes: components["schemas"]["PathNodeInputDto"][];
            links: components["schemas"]["PathLinkInputDto"][];
            /** @description How routes are timed and snapped; left out: the stored settings stay (a graph alone replaces only the graph) */
            settings?: components["schemas"]["RouteSettingsDto"];
        };
        DirectionsFromDto: {
            /** @description Floor metres (with y); or lat/lng */
            x?: number;
            y?: number;
            /** @description Instead of x/y (with lng) */
            lat?: number;
            lng?: number;
            /** @description With x/y or lat/lng: a floor of the building */
            floor_id?: number;
            /** @description Instead of a point: a POI of the building (on a floor) */
            poi_id?: number;
            /** @description Instead of a point: the device's live position (its newest fix, at most POSITIONS_MAX_SEC_THRESHOLD seconds old) */
            device_id?: string;
        };
        DirectionsToDto: {
            /** @description Floor metres (with y); or lat/lng */
            x?: number;
            y?: number;
            /** @description Instead of x/y (with lng) */
            lat?: number;
            lng?: number;
            /** @description With x/y or lat/lng: a floor of the building */
            floor_id?: number;
            /** @description Instead of a point: a POI of the building (on a floor) */
            poi_id?: number;
            /** @description Instead of a point: the quickest to reach of the building's POIs of this category */
            poi_category_id?: number;
        };
        DirectionsRequestDto: {
            /** @description {floor_id, x, y}, {floor_id, lat, lng}, {poi_id} or {device_id} */
            from: components["schemas"]["DirectionsFromDto"];
            /** @description {floor_id, x, y}, {floor_id, lat, lng}, {poi_id} or {poi_category_id} */
            to: components["schemas"]["DirectionsToDto"];
            /**
             * @description ONLY_ACCESSIBLE never uses a link with accessible false; ONLY_NOT_ACCESSIBLE_FLOOR_CHANGES never an accessible floor link (lift or ramp)
             * @default CHOOSE_SHORTEST
             * @enum {string}
             */
            accessibility_mode: "CHOOSE_SHORTEST" | "ONLY_ACCESSIBLE" | "ONLY_NOT_ACCESSIBLE_FLOOR_CHANGES";
            /**
             * @description The fewest floor changes first (one ride of a connector across floors is one), then the quickest
             * @default false
             */
            minimize_floor_changes: boolean;
            /**
             * @description Connector types whose links' time is multiplied by avoid_factor
             * @default []
             */
            avoid: ("stairs" | "elevator" | "escalator" | "ramp")[];
            /**
             * @description Connector types never used
             * @default []
             */
            exclude: ("stairs" | "elevator" | "escalator" | "ramp")[];
            /** @default 10 */
            avoid_factor: number;
            /**
             * @description When not empty: only links carrying one of these tags (any case)
             * @default []
             */
            included_tags: string[];
            /**
             * @description Never a link carrying one of these tags (any case)
             * @default []
             */
            excluded_tags: string[];
            /**
             * @description Walking speed, metres per second
             * @default 1.2
             */
            speed_m_s: number;
        };
        RoutePointDto: {
            floor_id: number;
            /** @description Floor metres */
            x: number;
            y: number;
            lat: number;
            lng: number;
        };
        RouteEdgeDto: {
            /** @description Index into points */
            from: number;
            /** @description Index into points */
            to: number;
            /** @description Metres (horizontal, on a floor link) */
            distance: number;
            /** @description The floor it starts on */
            floor_id: number;
            /**
             * @description null on a walk within a floor
             * @enum {string|null}
             */
            connector: "stairs" | "elevator" | "escalator" | "ramp" | null;
        };
        RouteSegmentDto: {
            floor_id: number;
            points: components["schemas"]["RoutePointDto"][];
        };
        RouteIndicationDto: {
            /** @enum {string} */
            action: "go_ahead" | "turn_left" | "turn_right" | "change_floor" | "arrive";
            /** @description Metres walked following it */
            distance: number;
            floor_id: number;
            /** @description The floor a change_floor leads to; null otherwise */
            next_floor_id: number | null;
            /** @example Take the elevator to floor 2 */
            text: string;
        };
        RouteGeoJsonDto: {
            /** @enum {string} */
            type: "FeatureCollection";
            /** @description One LineString Feature per part of the route on a floor ([lng, lat] coordinates), properties { floor_id } */
            features: Record<string, never>[];
        };
        DirectionsResponseDto: {
            /** @description Metres walked, the start and end snaps included */
            distance: number;
            /** @description Seconds: walking at speed_m_s, floor changes by their type, a wait at lifts */
            duration: number;
            /** @description Where the start snapped onto the paths */
            from: components["schemas"]["RoutePointDto"];
            /** @description Where the end snapped onto the paths */
            to: components["schemas"]["RoutePointDto"];
            /** @description The POI reached, for a to of poi_id or poi_category_id; null for a point */
            to_poi_id: number | null;
            points: components["schemas"]["RoutePointDto"][];
            edges: components["schemas"]["RouteEdgeDto"][];
            segments: components["schemas"]["RouteSegmentDto"][];
            indications: components["schemas"]["RouteIndicationDto"][];
            /** @description The avoided connector types the route still uses */
            avoided: ("stairs" | "elevator" | "escalator" | "ramp")[];
            geojson: components["schemas"]["RouteGeoJsonDto"];
        };
        NavigationRequestDto: {
            /** @description {floor_id, x, y}, {floor_id, lat, lng}, {poi_id} or {poi_category_id} */
            to: components["schemas"]["DirectionsToDto"];
            /**
             * @description ONLY_ACCESSIBLE never uses a link with accessible false; ONLY_NOT_ACCESSIBLE_FLOOR_CHANGES never an accessible floor link (lift or ramp)
             * @default CHOOSE_SHORTEST
             * @enum {string}
             */
            accessibility_mode: "CHOOSE_SHORTEST" | "ONLY_ACCESSIBLE" | "ONLY_NOT_ACCESSIBLE_FLOOR_CHANGES";
            /**
             * @description The fewest floor changes first (one ride of a connector across floors is one), then the quickest
             * @default false
             */
            minimize_floor_changes: boolean;
            /**
             * @description Connector types whose links' time is multiplied by avoid_factor
             * @default []
             */
            avoid: ("stairs" | "elevator" | "escalator" | "ramp")[];
            /**
             * @description Connector types never used
             * @default []
             */
            exclude: ("stairs" | "elevator" | "escalator" | "ramp")[];
            /** @default 10 */
            avoid_factor: number;
            /**
             * @description When not empty: only links carrying one of these tags (any case)
             * @default []
             */
            included_tags: string[];
            /**
             * @description Never a link carrying one of these tags (any case)
             * @default []
             */
            excluded_tags: string[];
            /**
             * @description Walking speed, metres per second
             * @default 1.2
             */
            speed_m_s: number;
        };
        NavigationResponseDto: {
            device_id: string;
            building_id: number;
            /** @description Where the route ends: the snapped destination (the route’s `to`) */
            destination: components["schemas"]["RoutePointDto"];
            /** @description Metres along the route from where the device is on it to the destination */
            distance_remaining: number;
            /** @description Seconds of the route left, at the request’s speed, floor changes included */
            duration_remaining: number;
            /** @description The first of the route’s indications not behind the device (arrive at the end) */
            next_indication: components["schemas"]["RouteIndicationDto"];
            /** @description The newest fix is farther than the building’s off_route_distance_m from the route (or on none of its floors) */
            off_route: boolean;
            /** @description The device reached its destination (within 3 m, on its floor): the guidance has ended */
            arrived: boolean;
            /** @description The route followed, as directions answer it; a new one after off_route_fixes off-route fixes in a row */
            route: components["schemas"]["DirectionsResponseDto"];
            started_at: string;
            /** @description When the progress last changed (a fix followed, or the start) */
            updated_at: string;
        };
        PoiCategoryResponseDto: {
            id: number;
            name_en: string;
            name_es: string;
            code: string;
            public: boolean;
            /** @description Relative URL of the icon; "" when none */
            icon_url: string;
            /** @description Relative URL of the selected icon; "" when none */
            selected_icon_url: string;
            /** @example 2020-05-08T10:26:34.801+00:00 */
            created_at: string;
            /** @example 2020-05-08T10:26:34.801+00:00 */
            updated_at: string;
        };
        CreatePoiCategoryDto: {
            /** @example Toilets */
            name_en: string;
            /** @example Aseos */
            name_es?: string;
            /**
             * @description Unique within the organization
             * @example wc
             */
            code: string;
            /**
             * Format: uuid
             * @description Id of an uploaded image; null or "" removes it
             */
            icon?: string | null;
            /**
             * Format: uuid
             * @description Id of an uploaded image; null or "" removes it
             */
            selected_icon?: string | null;
            /** @default false */
            public: boolean;
        };
        UpdatePoiCategoryDto: {
            /** @example Toilets */
            name_en?: string;
            /** @example Aseos */
            name_es?: string;
            /**
             * @description Unique within the organization
             * @example wc
             */
            code?: string;
            /**
             * Format: uuid
             * @description Id of an uploaded image; null or "" removes it
             */
            icon?: string | null;
            /**
             * Format: uuid
             * @description Id of an uploaded image; null or "" removes it
             */
            selected_icon?: string | null;
            /** @default false */
            public: boolean;
        };
        PoiPositionInputDto: {
            /** @description The floor; absent or null for an outdoor POI */
            floor_id?: number | null;
            /** @description Either georeferences or cartesians */
            georeferences?: components["schemas"]["LocationDto"];
            /** @description Used when georeferences are absent */
            cartesians?: components["schemas"]["CartesiansDto"];
            /** @description Metres */
            radius?: number;
        };
        CreatePoiDto: {
            /** @example 5962 */
            building_id: number;
            /** @example Reception */
            name: string;
            /** @description HTML; sanitized into info, kept as sent in info_unsafe */
            info?: string;
            category_id?: number | null;
            custom_fields?: components["schemas"]["CustomFieldDto"][];
            position: components["schemas"]["PoiPositionInputDto"];
        };
        UpdatePoiDto: {
            /** @example 5962 */
            building_id?: number;
            /** @example Reception */
            name?: string;
            /** @description HTML; sanitized into info, kept as sent in info_unsafe */
            info?: string;
            category_id?: number | null;
            custom_fields?: components["schemas"]["CustomFieldDto"][];
            position?: components["schemas"]["PoiPositionInputDto"];
        };
        WebhookFiltersResponseDto: {
            building_ids: string[];
            geofence_ids: string[];
        };
        WebhookResponseDto: {
            /** Format: uuid */
            id: string;
            url: string;
            event_types: ("geofence.enter" | "geofence.exit" | "geofence.dwell")[];
            description: string;
            filters: components["schemas"]["WebhookFiltersResponseDto"];
            enabled: boolean;
            /**
             * @description Why the server disabled it (a 410 from the receiver)
             * @enum {string|null}
             */
            disabled_reason: "endpoint_gone" | null;
            /** @description Until when the previous secret also signs (after a rotation) */
            previous_secret_expires_at: string | null;
            created_at: string;
            updated_at: string;
        };
        WebhookFiltersDto: {
            /**
             * @description Only events of these buildings (empty: every building)
             * @example [
             *       "5962"
             *     ]
             */
            building_ids?: string[];
            /** @description Only events of these geofences (empty: every geofence) */
            geofence_ids?: string[];
        };
        CreateWebhookDto: {
            /** @example https://hooks.example.com/cartograph */
            url: string;
            /** @description Default: every type */
            event_types?: ("geofence.enter" | "geofence.exit" | "geofence.dwell")[];
            description?: string;
            filters?: components["schemas"]["WebhookFiltersDto"];
            /** @default true */
            enabled: boolean;
        };
        WebhookWithSecretDto: {
            /** Format: uuid */
            id: string;
            url: string;
            event_types: ("geofence.enter" | "geofence.exit" | "geofence.dwell")[];
            description: string;
            filters: components["schemas"]["WebhookFiltersResponseDto"];
            enabled: boolean;
            /**
             * @description Why the server disabled it (a 410 from the receiver)
             * @enum {string|null}
             */
            disabled_reason: "endpoint_gone" | null;
            /** @description Until when the previous secret also signs (after a rotation) */
            previous_secret_expires_at: string | null;
            created_at: string;
            updated_at: string;
            /**
             * @description The signing secret: shown here only
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret: string;
        };
        UpdateWebhookDto: {
            /** @example https://hooks.example.com/cartograph */
            url?: string;
            /** @description Default: every type */
            event_types?: ("geofence.enter" | "geofence.exit" | "geofence.dwell")[];
            description?: string;
            filters?: components["schemas"]["WebhookFiltersDto"];
            /** @default true */
            enabled: boolean;
        };
        DeliveryAttemptDto: {
            attempt: number;
            started_at: string;
            duration_ms: number;
            /** @description null: no HTTP answer (timeout, connection refused, refused target) */
            status_code: number | null;
            error: string | null;
        };
        DeliveryResponseDto: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            webhook_id: string;
            /** @description The webhook-id header of every attempt: the event id */
            message_id: string;
            event_type: string;
            /** @enum {string} */
            status: "pending" | "failed" | "succeeded" | "dead";
            attempts: number;
            next_attempt_at: string | null;
            last_status_code: number | null;
            last_error: string | null;
            last_attempt_at: string | null;
            created_at: string;
            attempt_log: components["schemas"]["DeliveryAttemptDto"][];
        };
        ReplayWebhookDto: {
            /**
             * @description With `to`: the events that occurred in [from, to] (at most 31 days, 10,000 events) and that the webhook subscribes to
             * @example 2026-11-20T00:00:00Z
             */
            from?: string;
            /** @example 2026-11-21T00:00:00Z */
            to?: string;
            /**
             * @description These events (at most 1,000), whatever the webhook subscribes to
             * @example [
             *       "evt_3f1c9a2b7d4e5f60718293a4"
             *     ]
             */
            event_ids?: string[];
        };
        ReplayResponseDto: {
            /** Format: uuid */
            webhook_id: string;
            /** @description Events the replay covers (in the range and subscribed to, or listed) */
            events: number;
            /** @description Deliveries queued for an attempt now (a new one, or the existing delivery of that event to this webhook sent again) */
            enqueued: number;
            /** @description Events whose delivery to this webhook was being attempted at that moment (left to that attempt) */
            in_flight: number;
        };
        GatewayResponseDto: {
            id: number;
            building_id: number;
            floor_id: number;
            lat: number;
            lng: number;
            x: number;
            y: number;
            height_m: number | null;
            /** @example aaccee001122 */
            hardware_id: string;
            name: string;
            /** @enum {string} */
            format: "espresense" | "ruuvi" | "minew" | "cartograph";
            /** @example 2020-05-08T10:26:34.801+00:00 */
            created_at: string;
            /** @example 2020-05-08T10:26:34.801+00:00 */
            updated_at: string;
        };
        GatewayInputDto: {
            /** @example 36495 */
            floor_id: number;
            /** @description Floor metres along the building width */
            x?: number;
            /** @description Floor metres along the building length */
            y?: number;
            lat?: number;
            lng?: number;
            /**
             * @description The floor's building; when sent it must be the floor's
             * @example 5962
             */
            building_id?: number;
            /**
             * @description The MAC (any case, `:` or `-` or no separators; stored as `aaccee001122`) or the node name (ESPresense room) the messages carry; unique in the organization
             * @example aa:cc:ee:00:11:22
             */
            hardware_id: string;
            /**
             * @description What the gateway sends: espresense (MQTT only), ruuvi, minew, cartograph
             * @enum {string}
             */
            format: "espresense" | "ruuvi" | "minew" | "cartograph";
            /** @example Corridor 2, north */
            name?: string;
            /**
             * @description Metres above the floor (null: not known)
             * @example 2.8
             */
            height_m?: number | null;
        };
        UpdateGatewayDto: {
            /** @example 36495 */
            floor_id?: number;
            /** @description Floor metres along the building width */
            x?: number;
            /** @description Floor metres along the building length */
            y?: number;
            lat?: number;
            lng?: number;
            /**
             * @description The floor's building; when sent it must be the floor's
             * @example 5962
             */
            building_id?: number;
            /**
             * @description The MAC (any case, `:` or `-` or no separators; stored as `aaccee001122`) or the node name (ESPresense room) the messages carry; unique in the organization
             * @example aa:cc:ee:00:11:22
             */
            hardware_id?: string;
            /**
             * @description What the gateway sends: espresense (MQTT only), ruuvi, minew, cartograph
             * @enum {string}
             */
            format?: "espresense" | "ruuvi" | "minew" | "cartograph";
            /** @example Corridor 2, north */
            name?: string;
            /**
             * @description Metres above the floor (null: not known)
             * @example 2.8
             */
            height_m?: number | null;
        };
        GatewayLimitDto: {
            /**
             * @description The limit a message or connection exceeded
             * @enum {string}
             */
            name: "message_size" | "batch_records" | "message_rate" | "connections";
            /** @example 2020-05-08T10:26:34.801+00:00 */
            at: string;
        };
        GatewayHealthDto: {
            gateway_id: number;
            hardware_id: string;
            /** @description The last message from the gateway, understood or not */
            last_seen_at: string | null;
            /** @description No message for 5 minutes (or never, 5 minutes after it was registered) */
            silent: boolean;
            /** @description Messages per second over about the last minute */
            messages_per_second: number;
            /** @description Distinct tags heard in the last minute */
            tags_heard: number;
            /** @description Messages received since the gateway was first heard */
            messages: number;
            /** @description Messages not understood at all (refused whole) */
            messages_not_understood: number;
            /** @description Records of understood messages that were dropped (a bad RSSI, a key that is not a MAC) */
            records_not_understood: number;
            /** @description Why the last message or record was not understood */
            last_reason: string | null;
            last_reason_at: string | null;
            /** @description The last limit a message exceeded, and when */
            last_limit: components["schemas"]["GatewayLimitDto"] | null;
            /** @description Observations of registered tags stored */
            observations_stored: number;
            /** @description Observations already stored from a redelivered message (not stored again) */
            observations_duplicate: number;
            /** @description Observations of advertisers that are no tag of the organization: counted, never stored */
            unknown_advertisers: number;
        };
        GatewayIngestResponseDto: {
            /** @description Observations of registered tags now stored */
            stored: number;
            /** @description Observations already stored from an earlier delivery of the same message */
            duplicates: number;
            /** @description Observations of advertisers that are no tag of the organization (counted, not stored) */
            unknown: number;
            /** @description Records of the message that were not understood */
            rejected: number;
            /** @description Why the last record was not understood */
            last_reason: string | null;
        };
        WifiResponseDto: {
            id: number;
            floor_id: number;
            lat: number;
            lng: number;
            x: number;
            y: number;
            /** @example 2020-05-08T10:26:34.801+00:00 */
            created_at: string;
            /** @example 2020-05-08T10:26:34.801+00:00 */
            updated_at: string;
            /** @example a4:5e:60:e8:1f:01 */
            bssid: string;
            ssid: string;
            frequency: number | null;
        };
        BleResponseDto: {
            id: number;
            floor_id: number;
            lat: number;
            lng: number;
            x: number;
            y: number;
            /** @example 2020-05-08T10:26:34.801+00:00 */
            created_at: string;
            /** @example 2020-05-08T10:26:34.801+00:00 */
            updated_at: string;
            uuid: string;
            major: number;
            minor: number;
            tx_power: number | null;
            battery: number | null;
        };
        InfrastructureResponseDto: {
            building_id: number;
            /** @description UUIDs of the building's beacons and of its beacons_uuids custom field, lower case, sorted */
            beacon_uuids: string[];
            wifi: components["schemas"]["WifiResponseDto"][];
            ble: components["schemas"]["BleResponseDto"][];
        };
        WifiInputDto: {
            /** @example 36495 */
            floor_id: number;
            /** @description Floor metres along the building width */
            x?: number;
            /** @description Floor metres along the building length */
            y?: number;
            lat?: number;
            lng?: number;
            /**
             * @description Any case; `-` or no separator accepted; stored as lower-case `xx:xx:xx:xx:xx:xx`
             * @example a4:5e:60:e8:1f:01
             */
            bssid: string;
            /** @example Office */
            ssid?: string | null;
            /**
             * @description MHz
             * @example 2437
             */
            frequency?: number | null;
        };
        BleInputDto: {
            /** @example 36495 */
            floor_id: number;
            /** @description Floor metres along the building width */
            x?: number;
            /** @description Floor metres along the building length */
            y?: number;
            lat?: number;
            lng?: number;
            /**
             * @description Proximity UUID, any case; stored lower case
             * @example f7826da6-4fa2-4e98-8024-bc5b71e0893e
             */
            uuid: string;
            major: number;
            minor: number;
            /** @description dBm: the calibrated RSSI at 1 m (e.g. −59), or the radiated power when above −30 (e.g. 0 or +4) */
            tx_power?: number | null;
            /** @description Percent */
            battery?: number | null;
        };
        ReplaceInfrastructureBodyDto: {
            /** @description Required unless type=ble */
            wifi?: components["schemas"]["WifiInputDto"][];
            /** @description Required unless type=wifi */
            ble?: components["schemas"]["BleInputDto"][];
        };
        UpdateWifiDto: {
            /** @example 36495 */
            floor_id?: number;
            /** @description Floor metres along the building width */
            x?: number;
            /** @description Floor metres along the building length */
            y?: number;
            lat?: number;
            lng?: number;
            /**
             * @description Any case; `-` or no separator accepted; stored as lower-case `xx:xx:xx:xx:xx:xx`
             * @example a4:5e:60:e8:1f:01
             */
            bssid?: string;
            /** @example Office */
            ssid?: string | null;
            /**
             * @description MHz
             * @example 2437
             */
            frequency?: number | null;
        };
        UpdateBleDto: {
            /** @example 36495 */
            floor_id?: number;
            /** @description Floor metres along the building width */
            x?: number;
            /** @description Floor metres along the building length */
            y?: number;
            lat?: number;
            lng?: number;
            /**
             * @description Proximity UUID, any case; stored lower case
             * @example f7826da6-4fa2-4e98-8024-bc5b71e0893e
             */
            uuid?: string;
            major?: number;
            minor?: number;
            /** @description dBm: the calibrated RSSI at 1 m (e.g. −59), or the radiated power when above −30 (e.g. 0 or +4) */
            tx_power?: number | null;
            /** @description Percent */
            battery?: number | null;
        };
        BleReadingDto: {
            uuid: string;
            major: number;
            minor: number;
            /** @description dBm */
            rssi: number;
        };
        WifiReadingDto: {
            bssid: string;
            /** @description dBm */
            rssi: number;
        };
        ScanDto: {
            device_id: string;
            /** @description ISO 8601 or epoch milliseconds */
            time: Record<string, never>;
            /** @description Omitted: the building whose transmitters the scan hears */
            building_id?: number;
            ble?: components["schemas"]["BleReadingDto"][];
            wifi?: components["schemas"]["WifiReadingDto"][];
        };
        ScanBatchDto: {
            scans: components["schemas"]["ScanDto"][];
        };
        RawEstimateDto: {
            floor_id: number;
            /** @description Floor metres */
            x: number;
            /** @description Floor metres */
            y: number;
            lat: number;
            lng: number;
            accuracy: number;
        };
        TrackOutcomeDto: {
            /**
             * @description tracked: the track went on; started: a new track (see reason); late: older than the track, stored as estimated; off: the building does not track
             * @enum {string}
             */
            status: "tracked" | "started" | "late" | "off";
            /** @enum {string|null} */
            reason: "first" | "silence" | "contradiction" | "building" | null;
        };
        EstimatedFixDto: {
            /** @description Index of the scan in the request */
            index: number;
            device_id: string;
            time: string;
            building_id: number;
            floor_id: number;
            lat: number;
            lng: number;
            /** @description Floor metres */
            x: number;
            /** @description Floor metres */
            y: number;
            /** @description Metres: the true position lies within it for about two fixes in three */
            accuracy: number;
            /**
             * @description fit: the path-loss model; centroid: its fallback; single: one transmitter heard; fingerprint: k-NN over the floor's reference points; radio_map: the radio map of the floor's reference points
             * @enum {string}
             */
            method: "fit" | "centroid" | "single" | "fingerprint" | "radio_map";
            transmitters_used: number;
            /** @description The single-scan estimate; the fix itself is the tracked one where the building tracks */
            raw: components["schemas"]["RawEstimateDto"];
            track: components["schemas"]["TrackOutcomeDto"];
        };
        ScanIngestResponseDto: {
            accepted: number;
            rejected: Record<string, never>[];
            fixes: components["schemas"]["EstimatedFixDto"][];
            /** @description The geofence events these fixes fired */
            events: Record<string, never>[];
        };
        BleHeardDto: {
            uuid: string;
            major: number;
            minor: number;
            /** @description dBm */
            rssi: number;
        };
        WifiHeardDto: {
            bssid: string;
            /** @description dBm */
            rssi: number;
        };
        ReferencePointResponseDto: {
            id: number;
            floor_id: number;
            /** @description Floor metres */
            x: number;
            /** @description Floor metres */
            y: number;
            lat: number;
            lng: number;
            ble: components["schemas"]["BleHeardDto"][];
            wifi: components["schemas"]["WifiHeardDto"][];
            /** @example 2020-05-08T10:26:34.801+00:00 */
            created_at: string;
            /** @example 2020-05-08T10:26:34.801+00:00 */
            updated_at: string;
        };
        ReferencePointInputDto: {
            /** @example 36495 */
            floor_id: number;
            /** @description Floor metres along the building width */
            x?: number;
            /** @description Floor metres along the building length */
            y?: number;
            lat?: number;
            lng?: number;
            /** @description Beacons heard (at least one reading of either kind) */
            ble?: components["schemas"]["BleReadingDto"][];
            /** @description Access points heard */
            wifi?: components["schemas"]["WifiReadingDto"][];
        };
        UpdateReferencePointDto: {
            /** @example 36495 */
            floor_id?: number;
            /** @description Floor metres along the building width */
            x?: number;
            /** @description Floor metres along the building length */
            y?: number;
            lat?: number;
            lng?: number;
            /** @description Beacons heard (at least one reading of either kind) */
            ble?: components["schemas"]["BleReadingDto"][];
            /** @description Access points heard */
            wifi?: components["schemas"]["WifiReadingDto"][];
        };
        ExponentFitDto: {
            /**
             * @description fitted: the scans tell the exponent; prior: they do not yet (too few, or n cannot be told from the transmitters' offsets): the prior's is kept; unidentified: they point outside 1.5-4.5 (they do not fit the path-loss model): the prior's is kept
             * @enum {string}
             */
            state: "prior" | "fitted" | "unidentified";
            /** @description Why not fitted; null when fitted */
            reason: string | null;
            /** @description The exponent's standard deviation */
            sd: number;
        };
        WeakestRssiDto: {
            ble: number | null;
            wifi: number | null;
        };
        ScannerDto: {
            /** @description The weakest reading of each kind the scans reported (dBm): about the scanners' sensitivity */
            weakest_rssi: components["schemas"]["WeakestRssiDto"];
            /** @description The most readings one scan reported */
            max_readings: number;
            /** @description The share of scans with that many: near 1, the scanners keep their strongest max_readings */
            at_max_share: number;
        };
        CrossValidationDto: {
            /** @description Distinct reference positions and scans on the floor */
            points: number;
            scans: number;
            /** @description Leave-one-out median error of the path-loss model fitted from the references (metres) */
            model_median_error_m: number | null;
            /** @description The same for k-NN fingerprinting (null with fewer than 10 positions) */
            fingerprint_median_error_m: number | null;
            /** @description The same for the radio map (null with fewer than 10 positions, or where the residuals at the reference points show no spatial structure: no map is built) */
            radio_map_median_error_m: number | null;
        };
        TransmitterOffsetDto: {
            /** @enum {string} */
            type: "ble" | "wifi";
            id: number;
            /** @description dB the model adds to the registered reference RSSI (what the transmitter really sends at 1 m, less what is registered) */
            offset_db: number;
            /** @description The calibrated RSSI at 1 m (dBm) the estimator uses */
            reference_rssi: number;
        };
        FloorRadioModelDto: {
            floor_id: number;
            /**
             * @description default: the prior (no evidence yet); self_calibrated: learnt from the scans the server saw; reference_points: the model fitted from the reference points; fingerprinting: k-NN over the reference points; radio_map: the model plus the reference points' residuals interpolated in space (the last two where cross-validation found them better)
             * @enum {string}
             */
            method: "default" | "self_calibrated" | "reference_points" | "fingerprinting" | "radio_map";
            /** @description Path-loss exponent n */
            exponent: number;
            /** @description Whether the scans tell the exponent, and how well */
            exponent_fit: components["schemas"]["ExponentFitDto"];
            /** @description What the self-calibration's scans say of their scanners; null before any */
            scanner: components["schemas"]["ScannerDto"] | null;
            /**
             * @description Shadowing σ (dB) per kind: the weights of the fit and the size of the accuracy
             * @example {
             *       "ble": 4,
             *       "wifi": 6
             *     }
             */
            shadowing_db: Record<string, never>;
            /** @description Scans the running self-calibration rests on (the oldest count less beyond 20,000) */
            scans: number;
            /** @description When the running self-calibration last changed */
            updated_at: string | null;
            /** @description What the reference points give; null without any */
            reference_points: components["schemas"]["CrossValidationDto"] | null;
            transmitters: components["schemas"]["TransmitterOffsetDto"][];
        };
        RadioModelResponseDto: {
            building_id: number;
            /** @description One per floor with transmitters */
            floors: components["schemas"]["FloorRadioModelDto"][];
        };
        TrackingSettingsResponseDto: {
            /** @example 5962 */
            building_id: number;
            /**
             * @description Positions from scans are tracked
             * @example true
             */
            scans: boolean;
            /**
             * @description Positions reported by the devices are filtered
             * @example false
             */
            positions: boolean;
            /** @example 30 */
            reset_after_seconds: number;
            /**
             * @description Whether the building sets them (false: the defaults)
             * @example false
             */
            custom: boolean;
        };
        UpdateTrackingSettingsDto: {
            /**
             * @description Track positions from scans (a filter over each device’s scans); false places every scan on its own
             * @example true
             */
            scans?: boolean;
            /**
             * @description Filter the positions devices report themselves (POST /realtime/positions): a Kalman filter over each device’s fixes, stored in their place. Off by default: the apps filter them already
             * @example false
             */
            positions?: boolean;
            /**
             * @description A track starts afresh after this many seconds without a scan (or a filtered position)
             * @example 30
             */
            reset_after_seconds?: number;
        };
        PositionItemDto: {
            device_id: string;
            device_code?: string;
            /** @description ISO 8601 with a zone, or epoch milliseconds */
            time: string;
            building_id?: number;
            floor_id?: number;
            lat?: number;
            lng?: number;
            /** @description Floor metres in the building frame (instead of lat/lng) */
            x?: number;
            y?: number;
            accuracy: number;
            /** @description Radians */
            yaw?: number;
            indoor?: boolean;
            /** @description ADMIN_ORG credentials only */
            user_id?: string;
        };
        PositionBatchDto: {
            positions: components["schemas"]["PositionItemDto"][];
        };
        ItemRejectionDto: {
            index: number;
            /** @example invalid */
            code: string;
            /** @example floor_id */
            fields: string;
            message: string;
        };
        IngestResponseDto: {
            accepted: number;
            rejected: components["schemas"]["ItemRejectionDto"][];
            events: Record<string, never>[];
        };
        DevicePositionDto: {
            /** @example 2022-10-31T18:03:42.326Z */
            time: string;
            building_id: number | null;
            floor_id: number | null;
            lat: number;
            lng: number;
            x: number | null;
            y: number | null;
            accuracy: number;
            yaw: number | null;
        };
        IBeaconTagDto: {
            /**
             * @description Proximity UUID, any case, with or without dashes
             * @example f7826da6-4fa2-4e98-8024-bc5b71e0893e
             */
            uuid: string;
            major: number;
            minor: number;
        };
        EddystoneTagDto: {
            /**
             * @description Eddystone-UID namespace: 20 hexadecimal digits
             * @example edd1ebeac04e5defa017
             */
            namespace: string;
            /**
             * @description Eddystone-UID instance: 12 hexadecimal digits
             * @example 0123456789ab
             */
            instance: string;
        };
        TagIdentityDto: {
            ibeacon?: components["schemas"]["IBeaconTagDto"];
            /**
             * @description The advertiser's MAC, any case, `:` or `-` or no separators (stored as 12 lower-case hex digits)
             * @example AC:23:3F:A0:32:08
             */
            mac?: string;
            /**
             * @description An ESPresense device id (`iBeacon:{uuid}-{major}-{minor}` also matches the iBeacon)
             * @example irk:e46c37a106468d1376c58d33881ee47a
             */
            espresense_id?: string;
            eddystone?: components["schemas"]["EddystoneTagDto"];
        };
        DeviceResponseDto: {
            id: string;
            code: string;
            name: string;
            organization_id: string;
            /** @description The user of the latest fix */
            user_id: string | null;
            last_seen_at: string | null;
            last_position: components["schemas"]["DevicePositionDto"] | null;
            /** @description What the device advertises as a tag (normalised), or null */
            tag: components["schemas"]["TagIdentityDto"] | null;
            created_at: string;
            updated_at: string;
        };
        CreateDeviceDto: {
            name?: string;
            /** @description The hardware code (model) the device reports */
            code?: string;
            /** @description What the device advertises, for BLE gateways to hear it: exactly one of ibeacon, mac, espresense_id, eddystone; unique in the organization. null: no tag */
            tag?: components["schemas"]["TagIdentityDto"] | null;
            /**
             * @description The device id its fixes carry (unique in the organization)
             * @example forklift-7
             */
            id: string;
        };
        UpdateDeviceDto: {
            name?: string;
            /** @description The hardware code (model) the device reports */
            code?: string;
            /** @description What the device advertises, for BLE gateways to hear it: exactly one of ibeacon, mac, espresense_id, eddystone; unique in the organization. null: no tag */
            tag?: components["schemas"]["TagIdentityDto"] | null;
        };
        HeatmapCellDto: {
            /** @description The cell's centre, floor metres (x along the building's width) */
            x: number;
            /** @description The cell's centre, floor metres (y along the building's length) */
            y: number;
            lat: number;
            lng: number;
            /** @description Fixes in the cell during the range */
            count: number;
        };
        HeatmapResponseDto: {
            floor_id: number;
            building_id: number;
            /** @example 2026-11-01T00:00:00.000+00:00 */
            from: string;
            /** @example 2026-12-01T00:00:00.000+00:00 */
            to: string;
            /** @example 2 */
            cell_size: number;
            /** @description Fixes counted (with floor coordinates) in the range */
            total: number;
            /** @description The largest count of a cell */
            max: number;
            /** @description Cells with at least one fix, row by row */
            cells: components["schemas"]["HeatmapCellDto"][];
        };
        VersionResponseDto: {
            /**
             * @description Version of this Cartograph server
             * @example 0.1.0
             */
            version: string;
            /**
             * @description Newest version of the positioning API this server implements
             * @example 1.50.1
             */
            api_version: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    AuditController_list: {
        parameters: {
            query?: {
                /** @description 1-based page number (0 is read as 1) */
                page?: number;
                size?: number;
                /** @description `field` ascending or `-field` descending */
                sort?: string;
                /** @description ISO 8601 instant; entries at or after it */
                from?: string;
                /** @description ISO 8601 instant; entries at or before it */
                to?: string;
                actor_id?: string;
                action?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data?: components["schemas"]["AuditEventResponseDto"][];
                        metadata?: components["schemas"]["PageMetadataDto"];
                    };
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    AuthController_issueTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPairDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Too many failed logins */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    AuthController_refresh: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RefreshTokensDto"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenPairDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    ApiKeysController_list: {
        parameters: {
            query?: {
                /** @description Only keys with these permissions (comma-separated or repeated) */
                permissions?: ("disabled" | "positioning" | "read-only" | "cartography-read-write" | "read-write")[];
                /** @description ADMIN_ORG only: another user's keys (masked) */
                user_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyResponseDto"][];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    ApiKeysController_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiKeyDto"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    ApiKeysController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateApiKeyDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    ApiKeysController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    ApiKeysController_update_patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateApiKeyDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    DashboardSessionController_current: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardSessionDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    DashboardSessionController_logIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DashboardSessionDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Too many failed logins */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    DashboardSessionController_logOut: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    StreamTicketsController_issue: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StreamTicketDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    UsersController_list: {
        parameters: {
            query?: {
                /** @description 1-based page number (0 is read as 1) */
                page?: number;
                size?: number;
                /** @description `field`, `-field` or `field,asc|desc` */
                sort?: string;
                direction?: "ASC" | "DESC";
                ids?: string[];
                exclude_ids?: string[];
                group_ids?: string[];
                building_ids?: number[];
                has_buildings?: boolean;
                /** @description Substring, case-insensitive */
                full_name?: string;
                codes?: string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data?: components["schemas"]["UserResponseDto"][];
                        metadata?: components["schemas"]["PageMetadataDto"];
                    };
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    UsersController_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateUserDto"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The e-mail is taken */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    UsersController_me: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    UsersController_changePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChangePasswordDto"];
            };
        };
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    UsersController_changePassword_patch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChangePasswordDto"];
            };
        };
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    UsersController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    UsersController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateUserDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description E-mail taken, or the last ADMIN_ORG would be demoted */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    UsersController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The last ADMIN_ORG */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    UsersController_update_patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateUserDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description E-mail taken, or the last ADMIN_ORG would be demoted */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GroupsController_list: {
        parameters: {
            query?: {
                /** @description true: only groups with a parent; false: only top-level groups */
                has_parent?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GroupResponseDto"][];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GroupsController_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateGroupDto"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GroupResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Unknown parent or members, or a parent cycle */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GroupsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GroupResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GroupsController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateGroupDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GroupResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GroupsController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GroupsController_update_patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateGroupDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GroupResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    OrganizationsController_getCurrent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    OrganizationsController_update: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateOrganizationDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    OrganizationsController_update_patch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateOrganizationDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    BuildingsController_list: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BuildingResponseDto"][];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    BuildingsController_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateBuildingDto"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BuildingResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    BuildingsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BuildingDetailResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    BuildingsController_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional ETag from a GET; a stale or unparsable one answers 409 */
                "If-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateBuildingDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BuildingResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    BuildingsController_remove: {
        parameters: {
            query?: {
                /** @description true (default): delete its floors, POIs and paths, and soft-delete its live geofences; false: 409 while any remain */
                cascade?: boolean;
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    BuildingsController_update_patch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional ETag from a GET; a stale or unparsable one answers 409 */
                "If-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateBuildingDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BuildingResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    FloorsController_list: {
        parameters: {
            query?: {
                building_id?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FloorResponseDto"][];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    FloorsController_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateFloorDto"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FloorResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    FloorsController_listForBuilding: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                buildingId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FloorResponseDto"][];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    FloorsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FloorResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    FloorsController_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional ETag from a GET; a stale or unparsable one answers 409 */
                "If-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateFloorDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FloorResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    FloorsController_remove: {
        parameters: {
            query?: {
                /** @description Also soft-delete the live geofences instead of answering 409 */
                cascade?: boolean;
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    FloorsController_update_patch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional ETag from a GET; a stale or unparsable one answers 409 */
                "If-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateFloorDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FloorResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    ImagesController_upload: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "multipart/form-data": components["schemas"]["UploadImageDto"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The body or upload is larger than the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    ImagesController_get: {
        parameters: {
            query?: {
                /** @description A thumbnail at most this many pixels wide (WebP, aspect ratio kept, never enlarged) instead of the image itself */
                width?: 160 | 320 | 640 | 1280;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The image */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/*": string;
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofencesController_search: {
        parameters: {
            query?: {
                /** @description 1-based page number (0 is read as 1) */
                page?: number;
                size?: number;
                /** @description `field` ascending or `-field` descending */
                sort?: string;
                /** @description Comma-separated or repeated */
                building_ids?: number[];
                /** @description Comma-separated or repeated */
                floor_ids?: number[];
                /** @description Substring of the name, case-insensitive */
                name?: string;
                code?: string;
                /** @description true: only deleted geofences; false: only live ones */
                deleted?: boolean;
                /** @description Sent by the official client; must be the caller's organization (another is 404) */
                organization_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data?: components["schemas"]["GeofenceResponseDto"][];
                        metadata?: components["schemas"]["PageMetadataDto"];
                    };
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description organization_id is not the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofencesController_list: {
        parameters: {
            query?: {
                /** @description 1-based page number (0 is read as 1) */
                page?: number;
                size?: number;
                /** @description `field` ascending or `-field` descending */
                sort?: string;
                /** @description Comma-separated or repeated */
                building_ids?: number[];
                /** @description Comma-separated or repeated */
                floor_ids?: number[];
                /** @description Substring of the name, case-insensitive */
                name?: string;
                code?: string;
                /** @description true: only deleted geofences; false: only live ones */
                deleted?: boolean;
                /** @description Sent by the official client; must be the caller's organization (another is 404) */
                organization_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data?: components["schemas"]["GeofenceResponseDto"][];
                        metadata?: components["schemas"]["PageMetadataDto"];
                    };
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description organization_id is not the caller's organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofencesController_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateGeofenceDto"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GeofenceResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofencesController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GeofenceResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofencesController_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional ETag from a GET; a stale or unparsable one answers 409 */
                "If-Match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateGeofenceDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GeofenceResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofencesController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofencesController_update_patch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional ETag from a GET; a stale or unparsable one answers 409 */
                "If-Match"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateGeofenceDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GeofenceResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofencesController_restore: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GeofenceResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description its floor (or building) was deleted */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofencingRulesController_getFenceRules: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GeofenceRulesResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofencingRulesController_updateFenceRules: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** @description Any subset of the rules; null returns a field to its inherited value */
        requestBody: {
            content: {
                "application/json": components["schemas"]["GeofenceRulesPatchDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GeofenceRulesResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field out of range, named in errors[].fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofencingRulesController_resetFenceRules: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofencingRulesController_updateFenceRules_patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** @description Any subset of the rules; null returns a field to its inherited value */
        requestBody: {
            content: {
                "application/json": components["schemas"]["GeofenceRulesPatchDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GeofenceRulesResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field out of range, named in errors[].fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofencingRulesController_getSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GeofencingSettingsResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofencingRulesController_updateSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Any subset of the rules; null returns a field to its inherited value */
        requestBody: {
            content: {
                "application/json": components["schemas"]["GeofenceRulesPatchDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GeofencingSettingsResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field out of range, named in errors[].fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofencingRulesController_updateSettings_patch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Any subset of the rules; null returns a field to its inherited value */
        requestBody: {
            content: {
                "application/json": components["schemas"]["GeofenceRulesPatchDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GeofencingSettingsResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field out of range, named in errors[].fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofencingQueriesController_contains: {
        parameters: {
            query: {
                lat: number;
                lng: number;
                floor_id: number;
                /** @description Metres; the radius is max(0.5, accuracy_factor × accuracy) */
                accuracy?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContainsResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such floor in your organization */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofencingQueriesController_evaluate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EvaluateBodyDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EvaluateResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A bad point or an unknown floor, named in errors[].fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofenceEventsController_list: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description {"data":[event…],"next_cursor","has_more"} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description cursor_expired: events the cursor needs are past the retention (GEOFENCE_EVENT_RETENTION_DAYS); read again without a cursor */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A bad filter or cursor, named in errors[].fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofenceEventsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event (contract 7.3) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofenceSimulationController_simulate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description {"events":[event…]} with id and detected_at null */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The body is over 8 MiB (this route takes more than the 1 MiB of others, for its 10,000 positions) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A bad position, rule or unknown floor, or geofence_ids naming fences that are not your live ones, named in errors[].fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofenceOccupancyController_occupants: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description {"data":[occupant…]} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofenceOccupancyController_visits: {
        parameters: {
            query?: {
                /** @description 1-based page number (0 is read as 1) */
                page?: number;
                size?: number;
                /** @description `field` ascending or `-field` descending */
                sort?: string;
                /** @description ISO 8601: visits still under way at or after this time */
                from?: string;
                /** @description ISO 8601: visits that began at or before this time */
                to?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description {"data":[visit…],"metadata":{…}} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofenceOccupancyController_counts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description {"data":[{"geofence_id","name","code","building_id","floor_id","occupants"}]} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    PositionsController_list: {
        parameters: {
            query?: {
                /** @description Comma-separated or repeated */
                building_ids?: number[];
                /** @description Comma-separated or repeated user ids */
                user_ids?: string[];
                /** @description Comma-separated or repeated device ids */
                device_ids?: string[];
                /** @description `true`: only positions with a building and floor; `false`: only outdoor ones */
                indoor?: boolean;
                /** @description Only devices whose last fix is at most this many seconds old (default 60) */
                max_sec_threshold?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A FeatureCollection, one feature per device (its latest fix), coordinates `[lat, lng]`, with `devicesInfo` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    PositionsIngestController_ingest: {
        parameters: {
            query?: {
                /** @description `false` leaves the fired geofence events out of the answer */
                return_events?: boolean;
            };
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PositionBatchDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Over 1000 items or 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Every item was rejected (the list is in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    PositionsController_forBuilding: {
        parameters: {
            query?: {
                /** @description Comma-separated or repeated */
                building_ids?: number[];
                /** @description Comma-separated or repeated user ids */
                user_ids?: string[];
                /** @description Comma-separated or repeated device ids */
                device_ids?: string[];
                /** @description `true`: only positions with a building and floor; `false`: only outdoor ones */
                indoor?: boolean;
                /** @description Only devices whose last fix is at most this many seconds old (default 60) */
                max_sec_threshold?: number;
            };
            header?: never;
            path: {
                building_id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A FeatureCollection, one feature per device (its latest fix), coordinates `[lat, lng]`, with `devicesInfo` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    PositionsController_forOrganization: {
        parameters: {
            query?: {
                /** @description Comma-separated or repeated */
                building_ids?: number[];
                /** @description Comma-separated or repeated user ids */
                user_ids?: string[];
                /** @description Comma-separated or repeated device ids */
                device_ids?: string[];
                /** @description `true`: only positions with a building and floor; `false`: only outdoor ones */
                indoor?: boolean;
                /** @description Only devices whose last fix is at most this many seconds old (default 60) */
                max_sec_threshold?: number;
            };
            header?: never;
            path: {
                organization_uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A FeatureCollection, one feature per device (its latest fix), coordinates `[lat, lng]`, with `devicesInfo` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    PathsController_list: {
        parameters: {
            query?: {
                building_id?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PathsResponseDto"][];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    PathsController_createList: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Paths are replaced whole with PUT */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    PathsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                buildingId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PathsResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    PathsController_replace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                buildingId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReplacePathsDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PathsResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    PathsController_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Paths are replaced whole with PUT */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    PathsController_replace_patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                buildingId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReplacePathsDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PathsResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    DirectionsController_route: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                buildingId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DirectionsRequestDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DirectionsResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The building, or a POI, category or device named, is not the caller’s */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description validation_failed naming the field; end_unreachable (an end farther than the snap distance from a usable path); no_route */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    RealtimeStreamController_stream: {
        parameters: {
            query?: {
                /** @description Comma-separated or repeated */
                building_ids?: number[];
                /** @description Resume after this event id (as `Last-Event-ID`, which wins when both are sent) */
                after?: string;
                /** @description A single-use ticket from POST /auth/stream_tickets, instead of the headers */
                ticket?: string;
            };
            header?: {
                /** @description The last `id:` received; what changed after it is replayed first */
                "Last-Event-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/event-stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The organization has the most live streams allowed open */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofenceEventStreamController_stream: {
        parameters: {
            query?: never;
            header?: {
                /** @description The last `id:` received (an event cursor); the log after it is replayed first */
                "Last-Event-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description text/event-stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A bad filter or cursor, named in errors[].fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The organization has the most live streams allowed open */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    NavigationController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NavigationResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The device is not guided (never, ended, or arrived) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    NavigationController_start: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NavigationRequestDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NavigationResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The device, or a POI or category named, is not the caller’s */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description validation_failed naming the field (from is refused; device_id: no live position on a floor of a building); end_unreachable; no_route */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    NavigationController_end: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The device is not guided */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    NavigationController_start_patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NavigationRequestDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NavigationResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The device, or a POI or category named, is not the caller’s */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description validation_failed naming the field (from is refused; device_id: no live position on a floor of a building); end_unreachable; no_route */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    PoiCategoriesController_list: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PoiCategoryResponseDto"][];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    PoiCategoriesController_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePoiCategoryDto"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PoiCategoryResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    PoiCategoriesController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PoiCategoryResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    PoiCategoriesController_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional ETag from a GET; a stale or unparsable one answers 409 */
                "If-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdatePoiCategoryDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PoiCategoryResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    PoiCategoriesController_remove: {
        parameters: {
            query?: {
                /** @description Move the POIs of the deleted category to this one instead of answering 409 */
                reassign_to?: number;
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    PoiCategoriesController_update_patch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional ETag from a GET; a stale or unparsable one answers 409 */
                "If-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdatePoiCategoryDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PoiCategoryResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    PoisController_list: {
        parameters: {
            query?: {
                building_id?: number;
                type?: "indoor" | "outdoor";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PoiResponseDto"][];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    PoisController_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePoiDto"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PoiResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    PoisController_listForBuilding: {
        parameters: {
            query?: {
                building_id?: number;
                type?: "indoor" | "outdoor";
            };
            header?: never;
            path: {
                buildingId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PoiResponseDto"][];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    PoisController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PoiResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    PoisController_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional ETag from a GET; a stale or unparsable one answers 409 */
                "If-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdatePoiDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PoiResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    PoisController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    PoisController_update_patch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional ETag from a GET; a stale or unparsable one answers 409 */
                "If-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdatePoiDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PoiResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    PoisController_createBulk: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePoiDto"][];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PoiResponseDto"][];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    WebhooksController_list: {
        parameters: {
            query?: {
                /** @description 1-based page number (0 is read as 1) */
                page?: number;
                size?: number;
                /** @description `field` ascending or `-field` descending */
                sort?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookResponseDto"][];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    WebhooksController_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhookDto"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecretDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Invalid or refused URL, unknown event type or filter id */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    WebhooksController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    WebhooksController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebhookDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    WebhooksController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    WebhooksController_update_patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebhookDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    WebhooksController_rotateSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecretDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    WebhooksController_test: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description HTTP 202 */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    WebhooksController_listDeliveries: {
        parameters: {
            query?: {
                /** @description 1-based page number (0 is read as 1) */
                page?: number;
                size?: number;
                /** @description `field` ascending or `-field` descending */
                sort?: string;
                status?: "pending" | "failed" | "succeeded" | "dead";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryResponseDto"][];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    WebhooksController_retry: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description HTTP 202 */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description It is being attempted right now */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    WebhooksController_replay: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReplayWebhookDto"];
            };
        };
        responses: {
            /** @description HTTP 202 */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplayResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Neither or both forms, a bad or too wide range, or event ids not in the log (each named) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GatewaysController_list: {
        parameters: {
            query: {
                building_id: number;
                floor_id?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayResponseDto"][];
                    "text/csv": components["schemas"]["GatewayResponseDto"][];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GatewaysController_replace: {
        parameters: {
            query: {
                building_id: number;
                floor_id?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GatewayInputDto"][];
                "text/csv": components["schemas"]["GatewayInputDto"][];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayResponseDto"][];
                    "text/csv": components["schemas"]["GatewayResponseDto"][];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GatewaysController_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GatewayInputDto"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GatewaysController_replace_patch: {
        parameters: {
            query: {
                building_id: number;
                floor_id?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GatewayInputDto"][];
                "text/csv": components["schemas"]["GatewayInputDto"][];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayResponseDto"][];
                    "text/csv": components["schemas"]["GatewayResponseDto"][];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GatewaysController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GatewaysController_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional ETag from a GET; a stale or unparsable one answers 409 */
                "If-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateGatewayDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GatewaysController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GatewaysController_update_patch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional ETag from a GET; a stale or unparsable one answers 409 */
                "If-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateGatewayDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GatewaysController_health: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayHealthDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GatewayIngestController_take: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path: {
                hardware_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GatewayIngestResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No gateway of the organization has this hardware id */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Over 256 KiB (counted on the gateway’s health) */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Not understood (counted on the gateway’s health with the reason) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Over the gateway’s rate (200/s, bursts of 1,000; noted on its health as message_rate), with Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    InfrastructureController_read: {
        parameters: {
            query: {
                building_id: number;
                floor_id?: number;
                type?: "wifi" | "ble";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InfrastructureResponseDto"];
                    "text/csv": components["schemas"]["InfrastructureResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    InfrastructureController_replace: {
        parameters: {
            query: {
                building_id: number;
                /** @description Replace only this kind; the other is left as it is */
                type?: "wifi" | "ble";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReplaceInfrastructureBodyDto"];
                "text/csv": components["schemas"]["ReplaceInfrastructureBodyDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InfrastructureResponseDto"];
                    "text/csv": components["schemas"]["InfrastructureResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    InfrastructureController_replace_patch: {
        parameters: {
            query: {
                building_id: number;
                /** @description Replace only this kind; the other is left as it is */
                type?: "wifi" | "ble";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReplaceInfrastructureBodyDto"];
                "text/csv": components["schemas"]["ReplaceInfrastructureBodyDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InfrastructureResponseDto"];
                    "text/csv": components["schemas"]["InfrastructureResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    InfrastructureController_createWifi: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WifiInputDto"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WifiResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    InfrastructureController_getWifi: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WifiResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    InfrastructureController_updateWifi: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional ETag from a GET; a stale or unparsable one answers 409 */
                "If-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWifiDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WifiResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    InfrastructureController_removeWifi: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    InfrastructureController_updateWifi_patch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional ETag from a GET; a stale or unparsable one answers 409 */
                "If-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWifiDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WifiResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    InfrastructureController_createBle: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BleInputDto"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BleResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    InfrastructureController_getBle: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BleResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    InfrastructureController_updateBle: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional ETag from a GET; a stale or unparsable one answers 409 */
                "If-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateBleDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BleResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    InfrastructureController_removeBle: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    InfrastructureController_updateBle_patch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional ETag from a GET; a stale or unparsable one answers 409 */
                "If-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateBleDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BleResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    ScansController_ingest: {
        parameters: {
            query?: {
                /** @description `false` leaves the fired geofence events out of the answer */
                return_events?: boolean;
            };
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ScanBatchDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScanIngestResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Over 1000 scans, or a body over 3 MiB (1,000 scans of 30 readings are about 2.5 MB); the message names the limit */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No scan gave a stored position (the reasons are in `errors`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    ReferencePointsController_list: {
        parameters: {
            query: {
                building_id: number;
                /** @description Only this floor */
                floor_id?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReferencePointResponseDto"][];
                    "text/csv": components["schemas"]["ReferencePointResponseDto"][];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                    "text/csv": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    ReferencePointsController_replace: {
        parameters: {
            query: {
                building_id: number;
                /** @description Only this floor */
                floor_id?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReferencePointInputDto"][];
                "text/csv": components["schemas"]["ReferencePointInputDto"][];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReferencePointResponseDto"][];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The body is over 16 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    ReferencePointsController_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReferencePointInputDto"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReferencePointResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    ReferencePointsController_replace_patch: {
        parameters: {
            query: {
                building_id: number;
                /** @description Only this floor */
                floor_id?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReferencePointInputDto"][];
                "text/csv": components["schemas"]["ReferencePointInputDto"][];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReferencePointResponseDto"][];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The body is over 16 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    ReferencePointsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReferencePointResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    ReferencePointsController_update: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional ETag from a GET; a stale or unparsable one answers 409 */
                "If-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateReferencePointDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReferencePointResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    ReferencePointsController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    ReferencePointsController_update_patch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Optional ETag from a GET; a stale or unparsable one answers 409 */
                "If-Match"?: string;
            };
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateReferencePointDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReferencePointResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    RadioModelController_describe: {
        parameters: {
            query: {
                building_id: number;
                /** @description Only this floor */
                floor_id?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RadioModelResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    TrackingSettingsController_get: {
        parameters: {
            query: {
                building_id: number;
                /** @description Only this floor */
                floor_id?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrackingSettingsResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    TrackingSettingsController_update: {
        parameters: {
            query: {
                building_id: number;
                /** @description Only this floor */
                floor_id?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateTrackingSettingsDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrackingSettingsResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field out of range, named in errors[].fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    TrackingSettingsController_update_patch: {
        parameters: {
            query: {
                building_id: number;
                /** @description Only this floor */
                floor_id?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateTrackingSettingsDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrackingSettingsResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field out of range, named in errors[].fields */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    DevicesController_list: {
        parameters: {
            query?: {
                /** @description 1-based page number (0 is read as 1) */
                page?: number;
                size?: number;
                /** @description `field` ascending or `-field` descending */
                sort?: string;
                /** @description Substring of the id, name or code, case-insensitive */
                search?: string;
                /** @description Devices whose last fix is in these buildings (comma-separated or repeated) */
                building_ids?: number[];
                /** @description Devices whose last fix is on these floors (comma-separated or repeated) */
                floor_ids?: number[];
                /** @description ISO 8601 instant: only devices last seen at or after it */
                last_seen_after?: string;
                /** @description ISO 8601 instant: only devices last seen before it (or never) */
                last_seen_before?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data?: components["schemas"]["DeviceResponseDto"][];
                        metadata?: components["schemas"]["PageMetadataDto"];
                    };
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    DevicesController_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a request resent with the same key within 24 hours gets the first answer again (with Idempotent-Replayed: true) instead of creating twice. The same key with another request is 422; while the first is still running, 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateDeviceDto"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    DevicesController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    DevicesController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateDeviceDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    DevicesController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    DevicesController_update_patch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateDeviceDto"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Conflict: a unique value taken, a stale or unparsable If-Match, or dependents in the way */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    ReportsController_userPositionsJson: {
        parameters: {
            query: {
                /** @description Date-only or ISO 8601 date-time */
                from_date: string;
                /** @description Date-only (inclusive) or ISO 8601 date-time (exclusive) */
                to_date: string;
                building_id: number;
                user_id?: string;
                device_id?: string;
                floor_id?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description {"meta":[…],"data":[…],"rows":N,"statistics":{…}} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    ReportsController_userPositionsCsv: {
        parameters: {
            query: {
                /** @description Date-only or ISO 8601 date-time */
                from_date: string;
                /** @description Date-only (inclusive) or ISO 8601 date-time (exclusive) */
                to_date: string;
                building_id: number;
                user_id?: string;
                device_id?: string;
                floor_id?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Header = the meta names, one line per row */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    ReportsController_stayTimeJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description {"meta":[…],"data":[…],"rows":N,"statistics":{…}} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    ReportsController_stayTimeCsv: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Header = the meta names, one line per row */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    ReportsController_sessionsMatchesJson: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description {"meta":[…],"data":[…],"rows":N,"statistics":{…}} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    ReportsController_sessionsMatchesCsv: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Header = the meta names, one line per row */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    BuildingReportsController_visitorsJson: {
        parameters: {
            query: {
                /** @description Date-only (local midnight in time_zone) or ISO 8601 date-time */
                from_date: string;
                /** @description Date-only (inclusive: to the next local midnight) or ISO 8601 date-time (exclusive) */
                to_date: string;
                building_id: number;
                /** @description IANA time zone of the buckets and the local dates */
                time_zone?: string;
                grouping?: "hour" | "day" | "week" | "month";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description {"meta":[…],"data":[…],"rows":N,"statistics":{…}} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description output_too_large */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    BuildingReportsController_visitorsCsv: {
        parameters: {
            query: {
                /** @description Date-only (local midnight in time_zone) or ISO 8601 date-time */
                from_date: string;
                /** @description Date-only (inclusive: to the next local midnight) or ISO 8601 date-time (exclusive) */
                to_date: string;
                building_id: number;
                /** @description IANA time zone of the buckets and the local dates */
                time_zone?: string;
                grouping?: "hour" | "day" | "week" | "month";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Header = the meta names, one line per bucket */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description output_too_large */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    BuildingReportsController_positioningTimeJson: {
        parameters: {
            query: {
                /** @description Date-only (local midnight in time_zone) or ISO 8601 date-time */
                from_date: string;
                /** @description Date-only (inclusive: to the next local midnight) or ISO 8601 date-time (exclusive) */
                to_date: string;
                building_id: number;
                /** @description IANA time zone of the buckets and the local dates */
                time_zone?: string;
                grouping?: "hour" | "day" | "week" | "month";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description {"meta":[…],"data":[…],"rows":N,"statistics":{…}} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description output_too_large */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    BuildingReportsController_positioningTimeCsv: {
        parameters: {
            query: {
                /** @description Date-only (local midnight in time_zone) or ISO 8601 date-time */
                from_date: string;
                /** @description Date-only (inclusive: to the next local midnight) or ISO 8601 date-time (exclusive) */
                to_date: string;
                building_id: number;
                /** @description IANA time zone of the buckets and the local dates */
                time_zone?: string;
                grouping?: "hour" | "day" | "week" | "month";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Header = the meta names, one line per bucket */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description output_too_large */
            507: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofencingAnalyticsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description {"from","to","grouping","time_zone","data":[…]} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofencingAnalyticsController_search: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description {"from","to","grouping","time_zone","data":[…]} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    GeofencingAnalyticsController_history: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description {"from","to","grouping","time_zone","data":[{"geofence_id",…,"series":[{"bucket","max_occupancy","avg_occupancy","end_occupancy"}]}]} */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    HeatmapsController_floorHeatmap: {
        parameters: {
            query: {
                /** @description ISO 8601 instant: fixes at or after it */
                from: string;
                /** @description ISO 8601 instant: fixes before it */
                to: string;
                /** @description Side of a grid cell, in metres */
                cell_size?: 0.5 | 1 | 2 | 5 | 10;
            };
            header?: never;
            path: {
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HeatmapResponseDto"];
                };
            };
            /** @description Malformed JSON, or a malformed path or query parameter (bad_request) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description No such resource in your organization (entity_not_found) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description A field is invalid; errors[] names each one (validation_failed) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    VersionController_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VersionResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credentials */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
            /** @description The credentials do not permit this operation */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
    HealthController_live: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example ok */
                        status?: string;
                    };
                };
            };
        };
    };
    HealthController_ready: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example ok */
                        status?: string;
                        info?: Record<string, never>;
                        details?: Record<string, never>;
                    };
                };
            };
            /** @description The database cannot be reached; see Retry-After */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponseDto"];
                };
            };
        };
    };
}
